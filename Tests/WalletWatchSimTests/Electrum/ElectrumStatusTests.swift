import Testing
@testable import WalletWatchSim

/// The status of a script, exactly as protocol-basics ("Status") defines it, on its own worked
/// example: three mined transactions (two in block 2473, in block order) and three mempool ones,
/// height 0 before -1 and by txid within a height.
@Suite struct ElectrumStatusTests {
    static let mined = [
        ScriptHistoryItem(txid: "a6c9c361bd0bc536d6a22648efbf8f9b200e425ef6c3a7a9669dc444c532a347", height: 2472, fee: nil),
        ScriptHistoryItem(txid: "9c42f84b2fcdaff676ba25d9d4941741cc0d1a01cce0c23fdc4c0b2afa38431c", height: 2473, fee: nil),
        ScriptHistoryItem(txid: "770f2d4371b3fabb902dd9a103e2dd005fcd3971181078fca4a2a1d6ff127b30", height: 2473, fee: nil),
    ]
    static let mempool = [
        ScriptHistoryItem(txid: "80b19848aed792565ab7c5a79b7c2a00fbf985741579396ebe0ab6098e607311", height: 0, fee: 200),
        ScriptHistoryItem(txid: "e02a1dadfa83b996b24175df807b271ea5d02937ef5b35c195fac1e1bdc3198f", height: 0, fee: 300),
        ScriptHistoryItem(txid: "bb4c8ab438c13b89ca80d1d5bee25b0b6b7f55673f4d801998ba97db161d9e85", height: -1, fee: 200),
    ]

    @Test func theWorkedExamplesStatus() {
        #expect(ElectrumStatus.of(Self.mined + Self.mempool) == "78e96c6562cafa71c115503b9411fdfdc595a45031e2ab76ff75162fe1b0590d")
        // The same by the test's own hashing.
        #expect(ChainFixture.status((Self.mined + Self.mempool).map { ($0.txid, $0.height) })
            == "78e96c6562cafa71c115503b9411fdfdc595a45031e2ab76ff75162fe1b0590d")
        #expect(ElectrumStatus.of([]) == nil)
    }

    @Test func mempoolEntriesSortAsTheExampleLists() {
        for permutation in [[2, 1, 0], [1, 2, 0], [2, 0, 1], [0, 2, 1]] {
            let shuffled = permutation.map { Self.mempool[$0] }
            #expect(shuffled.sorted(by: ScriptHistoryItem.mempoolOrder) == Self.mempool)
        }
        // Another order hashes to another status.
        #expect(ElectrumStatus.of(Self.mined + Self.mempool.reversed()) != ElectrumStatus.of(Self.mined + Self.mempool))
    }
}
