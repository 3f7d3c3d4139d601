import Synchronization
import Testing
import TestSupport
@testable import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSim
@testable import WalletWatchSources

/// How an electrum pass comes by its headers (HeaderChainSync), on a real chain of 4,100
/// blocks served by the simulator's Electrum face, with checkpoints taken from that chain (its
/// blocks 2015 and 4031) the way walletwatch ships Electrum's for Bitcoin: below them a header
/// comes with the rest of its period and must lead to the period's checkpoint; past them the
/// chain is followed from the last one and kept; a retargeting chain's bits are computed from
/// the period before.
@Suite("Electrum: headers below and past the checkpoints", .serialized)
struct HeaderChainSyncTests {
    /// What a pass would find stored: an in-memory store of headers only.
    final class Kept: Sendable {
        let headers = Mutex<[Int64: BlockHeader]>([:])
        var store: ElectrumStore {
            ElectrumStore(histories: { _ in [:] }, transactions: { _ in [:] },
                          headers: { heights in self.headers.withLock { kept in kept.filter { heights.contains($0.key) } } },
                          topHeader: { above in self.headers.withLock { kept in kept.filter { $0.key > above }.max { $0.key < $1.key }.map { ($0.key, $0.value) } } },
                          listedElsewhere: { _, _ in [] }, proofs: { _ in [:] }, highestConfirmedHeight: { nil }, unprovenScripts: { [] })
        }
    }

    static func world() async throws -> (Simulator, ElectrumSession) {
        let simulator = try await Simulator.start(scenario: Scenario(tipHeight: 4100, bitcoin: BitcoinScenario()))
        let connector = try #require(ElectrumConnector(
            source: "node", url: simulator.electrumTCPURL, certificateSHA256: nil, route: .direct,
            limits: .init(maxLineBytes: 8 << 20, timeout: .seconds(30)), connectTimeout: .seconds(10), clientName: "walletwatch-test",
            network: .regtest))
        return (simulator, try await connector.open())
    }

    /// The chain's own headers, as the tests' trusted view.
    static func chain(_ session: ElectrumSession, through height: Int64) async throws -> [BlockHeader] {
        try await session.client.headerRuns(stride(from: 0, through: height, by: 2016).map { ($0, Int(min(2016, height - $0 + 1))) }).flatMap { $0 }
    }

    /// Regtest's rules with checkpoints at the ends of the chain's first two periods.
    static func parameters(_ chain: [BlockHeader], difficulty: ChainParameters.Difficulty = .fixed, bits: [UInt32]? = nil,
                           checkpoints: [Int] = [2015, 4031]) -> ChainParameters {
        ChainParameters(name: "regtest-with-checkpoints", network: .regtest, genesisHash: chain[0].hashHex, powLimitBits: 0x207f_ffff,
                        difficulty: difficulty,
                        checkpoints: Checkpoints(source: "the test chain's own blocks", hashes: checkpoints.map { chain[$0].hashHex }.joined(separator: "\n"),
                                                 bits: bits.map { $0.map { String($0, radix: 16) }.joined(separator: " ") }))
    }

    @Test("below the checkpoints: a header comes with the rest of its period and leads to its checkpoint; past them the chain is followed and kept")
    func belowAndPast() async throws {
        let (simulator, session) = try await Self.world()
        let chain = try await Self.chain(session, through: 4100)
        let kept = Kept()
        let sync = HeaderChainSync(client: session.client, chain: Self.parameters(chain), store: kept.store, latestTime: 4_000_000_000, full: false)
        await simulator.resetElectrumRequests()
        var records = ChainRecords()
        let found = try await sync.headers(at: [1000, 1500, 3000, 4050], tip: session.tip, records: &records)
        #expect(found.mapValues(\.hashHex) == [1000: chain[1000].hashHex, 1500: chain[1500].hashHex, 3000: chain[3000].hashHex, 4050: chain[4050].hashHex])
        let asked = await simulator.electrumRequests().filter { $0.method == "blockchain.block.headers" }.map(\.params)
        // Two runs below (block 1000 to the end of its period, 3000 to the end of its), one past.
        #expect(Set(asked) == [.array([.int(1000), .int(1016)]), .array([.int(3000), .int(1032)]), .array([.int(4032), .int(69)])], "\(asked)")
        // Kept: the needed headers below the checkpoints, the whole chain past them.
        #expect(records.headers.keys.filter { $0 <= 4031 }.sorted() == [1000, 1500, 3000])
        #expect(records.headers.keys.filter { $0 > 4031 }.sorted() == Array(4032...4100))

        // The next pass, with all that kept and two new blocks, asks for the new blocks only.
        kept.headers.withLock { $0.merge(records.headers) { _, new in new } }
        _ = try await simulator.mine(blocks: 2)
        try await session.client.ping()
        await simulator.resetElectrumRequests()
        var next = ChainRecords()
        let answer = try await session.client.one(ElectrumCall("blockchain.headers.subscribe"))
        let tip = try session.client.decode(answer, "blockchain.headers.subscribe") { try ElectrumClient.tip(&$0) }
        #expect(tip.height == 4102)
        _ = try await sync.headers(at: [1500, 4101], tip: tip, records: &next)
        let again = await simulator.electrumRequests().filter { $0.method == "blockchain.block.headers" }.map(\.params)
        #expect(again == [.array([.int(4101), .int(2)])], "\(again)")
        session.connection.close()
        await simulator.stop()
    }

    @Test("headers that do not lead to the checkpoint (another chain's) are refused, naming the block")
    func wrongCheckpoint() async throws {
        let (simulator, session) = try await Self.world()
        let chain = try await Self.chain(session, through: 4100)
        // The checkpoint of the first period is said to be block 2014's hash: the real chain does not lead there.
        let sync = HeaderChainSync(client: session.client, chain: Self.parameters(chain, checkpoints: [2014, 4031]), store: Kept().store,
                                   latestTime: 4_000_000_000, full: false)
        var records = ChainRecords()
        let error = await #expect(throws: SourceError.self) { try await sync.headers(at: [1000], tip: session.tip, records: &records) }
        #expect(error?.problem.contains("the headers from block 1000 to 2015 do not lead to regtest-with-checkpoints's checkpoint at block 2015") == true,
                "\(String(describing: error))")
        session.connection.close()
        await simulator.stop()
    }

    @Test("a retargeting chain: the first period past the checkpoints takes its bits from them, the next from the time the period before took")
    func retargets() async throws {
        let (simulator, session) = try await Self.world()
        let chain = try await Self.chain(session, through: 4100)
        // One checkpoint (block 2015) whose target for the next period is the limit: the
        // simulator's headers carry it. The period from 4032 on must then carry the retarget of
        // 2016...4031 (ten minutes a block, a little under two weeks: a harder target).
        let parameters = Self.parameters(chain, difficulty: .retargets, bits: [0x207f_ffff], checkpoints: [2015])
        let expected = parameters.retargetedBits(first: chain[2016], last: chain[4031])
        #expect(expected != 0x207f_ffff)
        let sync = HeaderChainSync(client: session.client, chain: parameters, store: Kept().store, latestTime: 4_000_000_000, full: false)
        var records = ChainRecords()
        let error = await #expect(throws: SourceError.self) { try await sync.headers(at: [3000], tip: session.tip, records: &records) }
        #expect(error?.problem.contains("the header of block 4032 carries bits 0x207fffff where regtest-with-checkpoints's difficulty is 0x\(String(expected, radix: 16))") == true,
                "\(String(describing: error))")
        session.connection.close()
        await simulator.stop()
    }
}
