import Foundation
import Testing
@testable import WalletWatchBitcoin

/// SPV as Electrum does it (SPEC.md section 21, issue 26), with Electrum itself as the oracle:
/// Electrum 4.3.4 as Debian 12 packages it (python3-electrum: its checkpoints.json and
/// checkpoints_testnet.json, blockchain.py and verifier.py), run by `Oracles/electrum_oracle.py`
/// on the same inputs as walletwatch's code. The inputs are built here: compact targets and
/// retarget periods (synthetic, and shaped like each of Bitcoin's real periods from Electrum's
/// own targets), Merkle trees with the branches a forger builds (CVE-2017-12842, CVE-2012-2459),
/// and regtest header chains with a fork, mined here at regtest's target (Fixtures/PROVENANCE.md).
@Suite("SPV against Electrum's own checks: checkpoints, targets, retargets, Merkle branches, header chains")
struct SPVTests {
    static let bitcoin = ChainParameters.all.first { $0.name == "bitcoin" }!
    static let regtest = ChainParameters.all.first { $0.name == "regtest" }!

    @Test("the checkpoints walletwatch ships are the ones Debian's Electrum loads, hash for hash and target for target, from the file the table names")
    func checkpointsAreElectrums() async throws {
        let answers = try await Oracle.electrum([["op": "checkpoints", "net": "mainnet"], ["op": "checkpoints", "net": "testnet"]])
        #expect(answers[0]["electrum"] as? String == "4.3.4")
        for (answer, chain, file) in [(answers[0], "bitcoin", "checkpoints.json"), (answers[1], "testnet3", "checkpoints_testnet.json")] {
            let parameters = try #require(ChainParameters.all.first { $0.name == chain })
            let entries = try #require(answer["entries"] as? [[String]])
            #expect(parameters.checkpoints.hashes == entries.map { $0[0] }, "\(chain)")
            #expect(parameters.checkpoints.lastHeight == Int64(entries.count) * 2016 - 1)
            if chain == "bitcoin" {
                #expect(entries.count == 371 && parameters.base == (747_935, entries[370][0]))
                let bits = try #require(parameters.checkpoints.bits)
                #expect(bits.map { Target(bits: $0).map { hex($0.bigEndian) } } == entries.map { $0[1] }, "every period's target")
            } else {
                #expect(entries.count == 1160 && entries.allSatisfy { $0[1] == String(repeating: "0", count: 64) } && parameters.checkpoints.bits == nil)
            }
            // The table names the file it was made from; the installed file is that one.
            let installed = try Data(contentsOf: URL(fileURLWithPath: Oracle.electrumFolder + "/" + file))
            #expect(parameters.checkpoints.source.hasPrefix("python3-electrum 4.3.4+"))
            #expect(parameters.checkpoints.source.hasSuffix("electrum/\(file), sha256 \(hex(Hashes.sha256(Array(installed))))"),
                    "\(parameters.checkpoints.source): run scripts/make-checkpoints if Debian's file changed")
        }
        let hashes = Self.bitcoin.checkpoints
        #expect(hashes.hash(endingPeriodOf: 0) == hashes.hash(endingPeriodOf: 2015) && hashes.hash(endingPeriodOf: 2016) != hashes.hash(endingPeriodOf: 2015))
        #expect(hashes.hash(endingPeriodOf: 747_935) == hashes.hashes.last && hashes.hash(endingPeriodOf: 747_936) == nil)
        #expect(Self.bitcoin.knownBits(at: 747_935) != nil && Self.bitcoin.knownBits(at: 749_951) == hashes.bits?.last)
        #expect(Self.bitcoin.knownBits(at: 749_952) == nil, "past the checkpoints a retarget is computed from the period before")
        // Electrum 4.3.4 has none for testnet4 or signet (nor regtest): followed from the genesis block.
        for chain in ["testnet4", "signet", "regtest"] {
            let parameters = try #require(ChainParameters.all.first { $0.name == chain })
            #expect(parameters.checkpoints.hashes.isEmpty && parameters.base == (0, parameters.genesisHash), "\(chain)")
        }
        // Each network's chains by their genesis blocks (testnet: testnet3 and testnet4).
        #expect(ChainParameters.chains(of: .testnet).map(\.name) == ["testnet3", "testnet4"])
        for parameters in ChainParameters.all where parameters.name != "testnet4" {
            #expect(parameters.genesisHash == parameters.network.genesisHeader.hashHex)
        }
        #expect(ChainParameters.chain(genesisHash: "000000000019D6689C085AE165831E934FF763AE46A2A6C172B3F1B60A8CE26F")?.name == "bitcoin")
        #expect(ChainParameters.chain(genesisHash: String(repeating: "0", count: 64)) == nil)
    }

    @Test("compact targets read and written as Electrum (Core's SetCompact and GetCompact) does, refusals included")
    func compactTargets() async throws {
        let bits: [UInt32] = [0x1d00_ffff, 0x207f_ffff, 0x1e03_77ae, 0x1b04_04cb, 0x1705_dd01, 0x1701_f303, 0x0000_0000, 0x0100_3456, 0x0112_3456,
                              0x0200_8000, 0x0212_3456, 0x0312_3456, 0x0412_3456, 0x0500_9234, 0x2012_3456, 0x2201_0000, 0x2200_0001,
                              0x2101_0000, 0x2100_ffff, 0x2300_0001, 0xff12_3456, 0x0492_3456, 0x0180_3456, 0x0280_0001, 0x0480_0000,
                              0x1d80_ffff, 0x0480_0001]
        let targets: [[UInt8]] = [[], [0x01], [0x7f], [0x80], [0xff, 0xff], [0x80, 0x00, 0x00], [0x12, 0x34, 0x56, 0x78],
                                  Array(repeating: 0xff, count: 28), [0x7f] + Array(repeating: 0xff, count: 31),
                                  [0x01] + Array(repeating: 0, count: 20), [0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x04, 0xcb, 0x12]]
            .map { Array(repeating: 0, count: 32 - $0.count) + $0 }
        let answers = try await Oracle.electrum(bits.map { ["op": "target", "bits": Int($0)] } + targets.map { ["op": "bits", "target": hex($0)] })
        for (index, value) in bits.enumerated() {
            let ours = Target(bits: value).map { hex($0.bigEndian) }
            #expect(ours == answers[index]["target"] as? String, "bits \(String(value, radix: 16)): ours \(ours ?? "refused"), Electrum's \(answers[index])")
        }
        // Negative (the sign bit on a number that is not zero once in place: 0x01803456 and
        // 0x02800001 read as 0, not negative) and overflowing encodings.
        let refused = zip(bits, answers).filter { $0.1["refused"] != nil }.map(\.0)
        #expect(refused == [0x2201_0000, 0x2101_0000, 0x2300_0001, 0xff12_3456, 0x0492_3456, 0x1d80_ffff, 0x0480_0001])
        for (index, target) in targets.enumerated() {
            #expect(Int(Target(bigEndian: target).bits) == answers[bits.count + index]["bits"] as? Int, "target \(hex(target))")
        }
    }

    /// A header of the period's first or last block, as a retarget reads it: its time and bits.
    static func periodHeader(time: UInt32, bits: UInt32) -> BlockHeader {
        BlockHeader(version: 0x2000_0000, previousHash: Array(repeating: 0, count: 32), merkleRoot: Array(repeating: 0, count: 32), time: time, bits: bits, nonce: 0)
    }

    @Test("a retarget is Electrum's: synthetic periods at and around the clamps, and every real period's target over periods of many lengths")
    func retargets() async throws {
        let twoWeeks = Int64(ChainParameters.targetTimespan)
        var periods: [(first: BlockHeader, last: BlockHeader)] = []
        // Synthetic: bits from the limit to a hard target, periods shorter than a quarter and
        // longer than four times two weeks, negative (a last block dated before the first) and exact.
        let spans: [Int64] = [-86_400, 0, 1, twoWeeks / 4 - 1, twoWeeks / 4, twoWeeks / 4 + 1, twoWeeks / 2, twoWeeks - 1, twoWeeks, twoWeeks + 1,
                              twoWeeks * 3 / 2, twoWeeks * 4 - 1, twoWeeks * 4, twoWeeks * 4 + 1, twoWeeks * 10, 1_234_567, 987_654]
        for bits: UInt32 in [0x1d00_ffff, 0x1d00_d86a, 0x1c05_a3f4, 0x1b04_04cb, 0x1a05_db8b, 0x1801_3ce9, 0x1703_31db, 0x207f_ffff, 0x1e03_77ae] {
            for span in spans {
                let first: Int64 = 1_400_000_000
                periods.append((Self.periodHeader(time: UInt32(first), bits: bits), Self.periodHeader(time: UInt32(first + span), bits: bits)))
            }
        }
        // Real-shaped: each of Bitcoin's 371 periods' targets (Electrum's checkpoints) as the
        // last period's bits, over periods of nine lengths.
        let real = try #require(Self.bitcoin.checkpoints.bits)
        for (index, bits) in real.enumerated() {
            for factor in [0.2, 0.26, 0.8, 0.93, 1.0, 1.07, 1.6, 3.99, 4.5] {
                let first = UInt32(1_231_006_505 + index * 1_209_600)
                periods.append((Self.periodHeader(time: first, bits: bits), Self.periodHeader(time: first + UInt32(Double(twoWeeks) * factor), bits: bits)))
            }
        }
        let answers = try await Oracle.electrum(periods.map { ["op": "retarget", "first": hex($0.first.serialized), "last": hex($0.last.serialized)] })
        var agreed = 0
        for (period, answer) in zip(periods, answers) {
            let ours = Self.bitcoin.retargetedBits(first: period.first, last: period.last)
            let matches = Int(ours) == answer["bits"] as? Int && Target(bits: ours).map { hex($0.bigEndian) } == answer["target"] as? String
            #expect(matches, "bits \(String(period.last.bits, radix: 16)) over \(Int64(period.last.time) - Int64(period.first.time)) s: ours \(String(ours, radix: 16)), Electrum's \(answer)")
            if matches { agreed += 1 }
        }
        #expect(agreed == 9 * spans.count + real.count * 9 && real.count == 371)
        // The clamps did something: a quarter and four times are the bounds, the limit the ceiling.
        #expect(Self.bitcoin.retargetedBits(first: periods[0].first, last: periods[0].last) == Self.bitcoin.retargetedBits(first: periods[4].first, last: periods[4].last))
        #expect(Self.bitcoin.retargetedBits(first: periods[8].first, last: periods[8].last) == 0x1d00_ffff)
        // Consecutive real periods: Electrum's next target is one the retarget can reach from the last (at most four times easier or harder).
        for (last, next) in zip(real, real.dropFirst()) {
            let low = Self.bitcoin.retargetedBits(first: Self.periodHeader(time: 0, bits: last), last: Self.periodHeader(time: 0, bits: last))
            let high = Self.bitcoin.retargetedBits(first: Self.periodHeader(time: 0, bits: last), last: Self.periodHeader(time: UInt32(twoWeeks * 4), bits: last))
            #expect(try #require(Target(bits: low)) <= #require(Target(bits: next)) && #require(Target(bits: next)) <= #require(Target(bits: high)))
        }
    }

    /// The hash a test names a leaf by: the double SHA-256 of its tag.
    static func leaf(_ tag: String) -> [UInt8] { Hashes.doubleSHA256(Array(tag.utf8)) }

    /// Electrum's request for a branch (hashes as displayed).
    static func merkleRequest(_ txid: [UInt8], _ hashes: [[UInt8]], _ position: Int) -> [String: Any] {
        ["op": "merkle", "txid": displayed(txid), "branch": hashes.map(displayed), "position": position]
    }

    @Test("Merkle branches: honest ones give Electrum's root; a 64-byte transaction's halves as a leaf (CVE-2017-12842) are refused by both")
    func innerNodeTransaction() async throws {
        // A transaction of exactly 64 bytes: its two halves hash, as a pair, to its txid.
        let transaction = RawTransaction(version: 1, inputs: [.init(previousTxid: String(repeating: "ab", count: 32), previousIndex: 1, sequence: 0xffff_ffff)],
                                         outputs: [.init(value: 50_000, scriptPubKey: [0x6a, 0x02, 0xbe, 0xef])], lockTime: 0)
        let raw = try #require(transaction.serialized)
        #expect(raw.count == 64)
        #expect((try? RawTransaction(parsing: raw)) != nil)
        let txid = internalOrder(try #require(transaction.txid))
        #expect(Hashes.doubleSHA256(raw) == txid)
        // A block of seven transactions, the 64-byte one third.
        let leaves = [Self.leaf("coinbase"), Self.leaf("a"), txid, Self.leaf("c"), Self.leaf("d"), Self.leaf("e"), Self.leaf("f")]
        let root = BlockHeader.merkleRoot(leaves)
        let honest = BlockHeader.merkleBranch(leaves, index: 2)
        // The forger's leaf: one half of the transaction, the other half its sibling, one level down.
        let left = Array(raw[..<32]), right = Array(raw[32...])
        let forgedRight = (leaf: right, hashes: [left] + honest, position: 5)
        let forgedLeft = (leaf: left, hashes: [right] + honest, position: 4)
        let answers = try await Oracle.electrum([
            ["op": "transaction", "hex": hex(raw)],
            Self.merkleRequest(txid, honest, 2),
            Self.merkleRequest(forgedRight.leaf, forgedRight.hashes, forgedRight.position),
            Self.merkleRequest(forgedLeft.leaf, forgedLeft.hashes, forgedLeft.position),
        ])
        #expect(answers[0]["transaction"] as? Bool == true, "Electrum reads the 64 bytes as a transaction")
        // "A mined 64-byte transaction is proven": both reach the root.
        #expect(try MerkleBranch(position: 2, hashes: honest).root(from: txid) == root)
        #expect(answers[1]["root"] as? String == displayed(root))
        // Its halves as a leaf and a sibling would reach the same root: both refuse.
        for (forged, answer) in [(forgedRight, answers[2]), (forgedLeft, answers[3])] {
            #expect(Hashes.doubleSHA256(left + right) == txid, "the forged pair hashes to the real leaf")
            let error = #expect(throws: MerkleBranchError.self) { try MerkleBranch(position: forged.position, hashes: forged.hashes).root(from: forged.leaf) }
            #expect(error?.description.contains("CVE-2017-12842") == true)
            #expect((answer["refused"] as? String)?.hasPrefix("InnerNodeOfSpvProofIsValidTx") == true, "\(answer)")
        }
    }

    @Test("Merkle branches: a phantom leaf of Bitcoin's odd-level padding (CVE-2012-2459) reaches the real root by Electrum 4.3.4's arithmetic, and walletwatch refuses it")
    func phantomLeaves() async throws {
        // Seven leaves: the seventh is paired with its copy. Six: the third node of level one is.
        let seven = (0..<7).map { Self.leaf("seven \($0)") }
        let six = (0..<6).map { Self.leaf("six \($0)") }
        // The branch of a leaf that exists only as padding: the same tree with the copies written out.
        let cases: [(name: String, leaves: [[UInt8]], padded: [[UInt8]], real: Int, phantom: Int)] = [
            ("the copy of the seventh leaf", seven, seven + [seven[6]], 6, 7),
            ("a copy of the fifth leaf, one level up", six, six + [six[4], six[5]], 4, 6),
            ("a copy of the sixth leaf, one level up", six, six + [six[4], six[5]], 5, 7),
        ]
        var requests: [[String: Any]] = []
        for item in cases {
            #expect(BlockHeader.merkleRoot(item.padded) == BlockHeader.merkleRoot(item.leaves), "padding written out is the same tree")
            requests.append(Self.merkleRequest(item.leaves[item.real], BlockHeader.merkleBranch(item.leaves, index: item.real), item.real))
            requests.append(Self.merkleRequest(item.padded[item.phantom], BlockHeader.merkleBranch(item.padded, index: item.phantom), item.phantom))
        }
        let answers = try await Oracle.electrum(requests)
        for (index, item) in cases.enumerated() {
            let root = BlockHeader.merkleRoot(item.leaves)
            // The real leaf, last of its level and paired with its own copy: proven by both.
            let real = BlockHeader.merkleBranch(item.leaves, index: item.real)
            #expect(try MerkleBranch(position: item.real, hashes: real).root(from: item.leaves[item.real]) == root, "\(item.name)")
            #expect(answers[index * 2]["root"] as? String == displayed(root))
            // The phantom: Electrum 4.3.4's verifier computes the real root (it has no check for
            // this shape; later Electrum versions refuse it too); walletwatch refuses it.
            #expect(answers[index * 2 + 1]["root"] as? String == displayed(root), "\(item.name): \(answers[index * 2 + 1])")
            let phantom = BlockHeader.merkleBranch(item.padded, index: item.phantom)
            let error = #expect(throws: MerkleBranchError.self) { try MerkleBranch(position: item.phantom, hashes: phantom).root(from: item.padded[item.phantom]) }
            #expect(error?.description.contains("CVE-2012-2459") == true, "\(item.name)")
        }
    }

    @Test("Merkle branches that fit no tree are refused by both: a position past the branch, a negative one, a hash not 32 bytes; a changed hash gives another root")
    func malformedBranches() async throws {
        let leaves = (0..<11).map { Self.leaf("eleven \($0)") }
        let root = BlockHeader.merkleRoot(leaves)
        let branch = BlockHeader.merkleBranch(leaves, index: 9)
        var changed = branch
        changed[1][0] ^= 1
        let cases: [(hashes: [[UInt8]], position: Int, refused: Bool)] = [
            (branch, 9, false), (branch, 9 + 16, true), (branch, -1, true), ([Array(branch[0].dropLast())] + branch.dropFirst(), 9, true),
            (changed, 9, false), (branch, 8, false),
        ]
        let answers = try await Oracle.electrum(cases.map { Self.merkleRequest(leaves[9], $0.hashes, $0.position) })
        for (index, item) in cases.enumerated() {
            let ours = try? MerkleBranch(position: item.position, hashes: item.hashes).root(from: leaves[9])
            let theirs = answers[index]["root"] as? String
            #expect((ours == nil) == item.refused && (theirs == nil) == item.refused, "case \(index): Electrum's \(answers[index])")
            #expect(ours.map(displayed) == theirs, "case \(index)")
            #expect((ours == root) == (index == 0), "case \(index): only the right branch at the right place reaches the root")
        }
    }

    /// A regtest header after `parent`, mined here at regtest's target (`bits`, by default the
    /// limit), its Merkle root standing for its block's transactions.
    static func mined(after parent: BlockHeader, _ tag: String, time: UInt32, bits: UInt32 = 0x207f_ffff) -> BlockHeader {
        var header = BlockHeader(version: 0x2000_0000, previousHash: parent.hash, merkleRoot: leaf(tag), time: time, bits: bits, nonce: 0)
        while !header.meetsItsProofOfWork { header.nonce += 1 }
        return header
    }

    @Test("regtest header chains mined here, with a fork: walletwatch and Electrum accept and refuse the same, at the same block")
    func headerChains() async throws {
        let genesis = Network.regtest.genesisHeader
        #expect(genesis.hashHex == Self.regtest.genesisHash)
        var main: [BlockHeader] = []
        for height in 1...24 { main.append(Self.mined(after: main.last ?? genesis, "main \(height)", time: genesis.time + UInt32(height) * 600)) }
        // A fork off block 12: blocks 13 to 20 of another chain.
        var fork: [BlockHeader] = []
        for height in 13...20 { fork.append(Self.mined(after: fork.last ?? main[11], "fork \(height)", time: genesis.time + UInt32(height) * 600 + 1)) }
        var unworked = main
        repeat { unworked[9].nonce &+= 1 } while unworked[9].meetsItsProofOfWork
        var harder = main
        harder[4] = Self.mined(after: main[3], "main 5", time: main[4].time, bits: 0x207f_fffe)
        for index in 5..<harder.count { harder[index] = Self.mined(after: harder[index - 1], "main \(index + 1)", time: main[index].time) }
        let cases: [(name: String, headers: [BlockHeader], refusedAt: Int?)] = [
            ("the main chain", main, nil),
            ("the fork, from the genesis block", Array(main[..<12]) + fork, nil),
            ("the main chain to block 14, then the fork's block 15", Array(main[..<14]) + Array(fork[2...]), 14),
            ("the fork's blocks after the main chain's block 12", Array(main[..<13]) + Array(fork[1...]), 13),
            ("block 10 without its work", unworked, 9),
            ("block 5 at bits 0x207ffffe, its work done", harder, 4),
            ("two blocks swapped", Array(main[..<6]) + [main[7], main[6]] + Array(main[8...]), 6),
        ]
        let answers = try await Oracle.electrum(cases.map {
            ["op": "headers", "headers": $0.headers.map { hex($0.serialized) }, "after": genesis.hashHex, "bits": 0x207f_ffff]
        })
        for (item, answer) in zip(cases, answers) {
            let theirs = answer["refused_at"] as? Int
            do {
                try Self.regtest.verify(item.headers, from: 1, after: genesis.hash, latestTime: Int64(genesis.time) + 100_000, bits: Self.regtest.knownBits(at:))
                #expect(item.refusedAt == nil, "\(item.name): accepted")
            } catch {
                #expect(error.height == Int64(item.refusedAt ?? -2) + 1, "\(item.name): \(error)")
            }
            #expect(theirs == item.refusedAt && (theirs != nil || answer["ok"] as? Bool == true), "\(item.name): Electrum's \(answer)")
        }
        // A header dated more than two hours past the clock: a node's rule, which walletwatch
        // keeps (Electrum does not check time).
        let error = #expect(throws: HeaderChainError.self) {
            try Self.regtest.verify(main, from: 1, after: genesis.hash, latestTime: Int64(main[16].time) - 1, bits: Self.regtest.knownBits(at:))
        }
        #expect(error?.height == 17 && error?.description.contains("more than two hours past the clock") == true)
    }
}
