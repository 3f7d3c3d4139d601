import Foundation
import Testing
import WalletWatchBitcoin

/// SPV as Electrum does it (SPEC.md section 21, issue 26), checked against data from outside:
/// a real mainnet transaction's Electrum `get_merkle` answer and the headers of its block and
/// the five after it, as the tBTC v2 project recorded them for its own proof tests; Electrum's
/// checkpoints, which must agree with those headers' difficulty; Electrum's own regtest headers
/// (with their forks) and its CVE-2017-12842 and CVE-2012-2459 vectors; Bitcoin Core's
/// retarget vectors (Fixtures/PROVENANCE.md).
@Suite("SPV: Merkle branches, headers, proof of work and checkpoints")
struct SPVTests {
    /// One of tBTC's recorded mainnet proofs: a transaction, its block's and the next headers
    /// (80 bytes each, from its block on), its `get_merkle` answer, and its block's coinbase with
    /// the coinbase's own branch.
    struct RecordedProof {
        var txid: String
        var headers: [BlockHeader]
        var height: Int64
        var branch: [String]
        var position: Int
        var coinbase: String
        var coinbaseBranch: [String]

        init(_ name: String) throws {
            let file = try Fixture.text("tbtc-v2/proof.ts.txt")
            let text = section(of: file, from: "export const \(name)", to: "export const")
            func quoted(_ part: String) -> [String] {
                let pattern = try! NSRegularExpression(pattern: #""([0-9a-f]+)""#)
                return pattern.matches(in: part, range: NSRange(part.startIndex..., in: part)).map { String(part[Range($0.range(at: 1), in: part)!]) }
            }
            func number(_ key: String, in part: String) -> Int {
                Int(section(of: part, from: key + ": ", to: ",").trimmingCharacters(in: .whitespaces)) ?? -1
            }
            txid = quoted(section(of: text, from: "transactionHash: BitcoinTxHash.from(", to: ")")).first ?? ""
            let chain = bytes(quoted(section(of: text, from: "headersChain: Hex.from(", to: ")")).joined())
            headers = try stride(from: 0, to: chain.count, by: 80).map { try BlockHeader(parsing: Array(chain[$0..<min($0 + 80, chain.count)])) }
            let merkle = section(of: text, from: "transactionMerkleBranch: {", to: "},\n    coinbase")
            height = Int64(number("blockHeight", in: merkle))
            branch = quoted(section(of: merkle, from: "merkle: [", to: "]"))
            position = number("position", in: merkle)
            coinbase = quoted(section(of: text, from: "coinbaseRawTransaction: {", to: "},")).joined()
            let coinbaseMerkle = section(of: text, from: "coinbaseMerkleBranch: {", to: "},\n    previousDifficulty")
            coinbaseBranch = quoted(section(of: coinbaseMerkle, from: "merkle: [", to: "]"))
        }

        /// The branch as walletwatch reads a `get_merkle` answer: display hex, reversed to internal order.
        static func merkleBranch(_ hashes: [String], position: Int) -> MerkleBranch {
            MerkleBranch(position: position, hashes: hashes.map { Array(bytes($0).reversed()) })
        }
    }

    static func internalOrder(_ txid: String) -> [UInt8] { Array(bytes(txid).reversed()) }

    @Test("a real mainnet get_merkle answer leads to its block's Merkle root, and so does its coinbase's; any change breaks it")
    func mainnetProof() throws {
        let proof = try RecordedProof("transactionConfirmationsInOneEpochData")
        #expect(proof.txid == "713525ee9d9ab23433cd6ad470566ba1f47cac2d7f119cc50119128a84d718aa" && proof.height == 776_166)
        #expect(proof.branch.count == 11 && proof.position == 17 && proof.headers.count == 6)
        let block = try #require(proof.headers.first)
        let branch = RecordedProof.merkleBranch(proof.branch, position: proof.position)
        #expect(try branch.root(from: Self.internalOrder(proof.txid)) == block.merkleRoot)
        // The coinbase, parsed and hashed here, at position 0 of the same block.
        let coinbase = try RawTransaction(hex: proof.coinbase)
        let coinbaseTxid = try #require(coinbase.txid)
        #expect(coinbase.inputs.first?.isCoinbase == true)
        #expect(try RecordedProof.merkleBranch(proof.coinbaseBranch, position: 0).root(from: Self.internalOrder(coinbaseTxid)) == block.merkleRoot)
        // Another position, another transaction, or one hash changed: another root.
        #expect(try RecordedProof.merkleBranch(proof.branch, position: 16).root(from: Self.internalOrder(proof.txid)) != block.merkleRoot)
        #expect(try branch.root(from: Self.internalOrder(coinbaseTxid)) != block.merkleRoot)
        var altered = proof.branch
        altered[4] = String(altered[4].reversed())
        #expect(try RecordedProof.merkleBranch(altered, position: proof.position).root(from: Self.internalOrder(proof.txid)) != block.merkleRoot)
        // A position the branch's depth cannot hold, a negative one, a short hash: refused.
        #expect(throws: MerkleBranchError.self) { try RecordedProof.merkleBranch(proof.branch, position: 1 << 11).root(from: Self.internalOrder(proof.txid)) }
        #expect(throws: MerkleBranchError.self) { try RecordedProof.merkleBranch(proof.branch, position: -1).root(from: Self.internalOrder(proof.txid)) }
        #expect(throws: MerkleBranchError.self) { try MerkleBranch(position: 0, hashes: [[1, 2]]).root(from: Self.internalOrder(proof.txid)) }
    }

    @Test("real mainnet headers link and meet their proof of work; their bits are the period's that Electrum's checkpoints give")
    func mainnetHeaders() throws {
        let bitcoin = try #require(ChainParameters.chain(genesisHash: "000000000019D6689C085AE165831E934FF763AE46A2A6C172B3F1B60A8CE26F"))
        for name in ["transactionConfirmationsInOneEpochData", "transactionConfirmationsInTwoEpochsData"] {
            let proof = try RecordedProof(name)
            let first = try #require(proof.headers.first)
            #expect(proof.headers.allSatisfy { $0.meetsItsProofOfWork })
            // The first's parent is not recorded: the chain is checked from it on.
            try bitcoin.verify(Array(proof.headers.dropFirst()), from: proof.height + 1, after: first.hash, latestTime: 1_800_000_000,
                               bits: bitcoin.knownBits(at:))
            for (offset, header) in proof.headers.enumerated() {
                #expect(bitcoin.knownBits(at: proof.height + Int64(offset)) == header.bits, "block \(proof.height + Int64(offset))")
            }
            // Out of order, one link is broken and named.
            var swapped = Array(proof.headers.dropFirst())
            swapped.swapAt(1, 2)
            #expect(throws: HeaderChainError.self) {
                try bitcoin.verify(swapped, from: proof.height + 1, after: first.hash, latestTime: 1_800_000_000, bits: bitcoin.knownBits(at:))
            }
            // A header dated more than two hours past the clock is refused.
            let error = #expect(throws: HeaderChainError.self) {
                try bitcoin.verify(Array(proof.headers.dropFirst()), from: proof.height + 1, after: first.hash,
                                   latestTime: Int64(proof.headers[2].time) - 1, bits: bitcoin.knownBits(at:))
            }
            #expect(error?.height == proof.height + 2 && error?.description.contains("more than two hours past the clock") == true)
        }
        // The second spans a retarget (block 774144): its first two headers carry the old
        // period's bits, the rest the new.
        let spanning = try RecordedProof("transactionConfirmationsInTwoEpochsData")
        #expect(spanning.height == 774_142 && Set(spanning.headers.map(\.bits)).count == 2)
        // A header whose bits are not the period's is refused even with its own work done.
        var easier = try RecordedProof("transactionConfirmationsInOneEpochData").headers
        let error = #expect(throws: HeaderChainError.self) {
            try bitcoin.verify(Array(easier.dropFirst()), from: 776_167, after: easier[0].hash, latestTime: 1_800_000_000) { _ in 0x1d00_ffff }
        }
        #expect(error?.description.contains("where bitcoin's difficulty is 0x1d00ffff") == true, "\(String(describing: error))")
        easier[3].nonce &+= 1
        #expect(!easier[3].meetsItsProofOfWork, "another nonce, no work")
    }

    @Test("Electrum's checkpoints are walletwatch's, hash for hash and target for target")
    func checkpointsAreElectrums() throws {
        for (chain, file) in [("bitcoin", "mainnet"), ("testnet3", "testnet"), ("testnet4", "testnet4"), ("signet", "signet")] {
            let parameters = try #require(ChainParameters.all.first { $0.name == chain })
            // Read as text: the targets are integers of up to 68 digits, beyond a JSON parser's doubles.
            let json = try Fixture.text("electrum-checkpoints/\(file).json")
            let pattern = try NSRegularExpression(pattern: #"\[\s*"([0-9a-f]{64})",\s*([0-9]+)\s*\]"#)
            let entries = pattern.matches(in: json, range: NSRange(json.startIndex..., in: json)).map {
                (String(json[Range($0.range(at: 1), in: json)!]), String(json[Range($0.range(at: 2), in: json)!]))
            }
            #expect(entries.count == json.components(separatedBy: "\"").count / 2, "every entry read")
            #expect(parameters.checkpoints.hashes == entries.map(\.0), "\(chain)")
            #expect(parameters.checkpoints.lastHeight == Int64(entries.count) * 2016 - 1)
            // Electrum writes each target as a number; its compact form must give it back.
            let targets = entries.map(\.1)
            if chain == "bitcoin" {
                let bits = try #require(parameters.checkpoints.bits)
                #expect(bits.count == targets.count)
                for (index, bits) in bits.enumerated() {
                    let decimal = Self.decimal(try #require(Target(bits: bits)).bigEndian)
                    #expect(decimal == targets[index], "checkpoint \(index)")
                }
            } else {
                #expect(targets.allSatisfy { $0 == "0" } && parameters.checkpoints.bits == nil)
            }
        }
        #expect(ChainParameters.all[0].checkpoints.hash(endingPeriodOf: 2015) == "00000000693067b0e6b440bc51450b9f3850561b07f6d3c021c54fbd6abb9763")
        #expect(ChainParameters.all[0].checkpoints.hash(endingPeriodOf: 0) == ChainParameters.all[0].checkpoints.hash(endingPeriodOf: 2015))
        #expect(ChainParameters.all[0].checkpoints.hash(endingPeriodOf: 2016) != ChainParameters.all[0].checkpoints.hash(endingPeriodOf: 2015))
        #expect(ChainParameters.all[0].checkpoints.hash(endingPeriodOf: 953_568) == nil)
        // Each network's chains by their genesis blocks (testnet: testnet3 and testnet4).
        #expect(ChainParameters.chains(of: .testnet).map(\.name) == ["testnet3", "testnet4"])
        for parameters in ChainParameters.all where parameters.name != "testnet4" {
            #expect(parameters.genesisHash == parameters.network.genesisHeader.hashHex)
        }
        #expect(ChainParameters.chain(genesisHash: String(repeating: "0", count: 64)) == nil)
    }

    /// `0x...` of 32 bytes as a decimal string (Electrum's JSON writes targets so).
    static func decimal(_ bigEndian: [UInt8]) -> String {
        var digits: [UInt8] = [0]
        for byte in bigEndian {
            var carry = Int(byte)
            for index in digits.indices.reversed() {
                let value = Int(digits[index]) * 256 + carry
                digits[index] = UInt8(value % 10)
                carry = value / 10
            }
            while carry > 0 {
                digits.insert(UInt8(carry % 10), at: 0)
                carry /= 10
            }
        }
        let text = digits.map { String($0) }.joined().drop { $0 == "0" }
        return text.isEmpty ? "0" : String(text)
    }

    @Test("Bitcoin Core's retarget vectors, and its compact targets")
    func retargets() throws {
        let text = try Fixture.text("bitcoin-core/pow_tests.cpp.txt")
        let bitcoin = try #require(ChainParameters.all.first { $0.name == "bitcoin" })
        let cases = text.components(separatedBy: "BOOST_AUTO_TEST_CASE(get_next_work").dropFirst()
        #expect(cases.count == 4)
        for body in cases {
            func value(_ key: String) -> UInt32? {
                let raw = section(of: body, from: key, to: ";").trimmingCharacters(in: .whitespaces)
                return raw.hasPrefix("0x") ? UInt32(raw.dropFirst(2), radix: 16) : UInt32(raw)
            }
            let lastRetarget = try #require(value("int64_t nLastRetargetTime = "))
            let lastTime = try #require(value("pindexLast.nTime = "))
            let lastBits = try #require(value("pindexLast.nBits = "))
            let expected = try #require(UInt32(section(of: body, from: "params), 0x", to: ")"), radix: 16))
            let zero = [UInt8](repeating: 0, count: 32)
            let first = BlockHeader(version: 1, previousHash: zero, merkleRoot: zero, time: lastRetarget, bits: lastBits, nonce: 0)
            let last = BlockHeader(version: 1, previousHash: zero, merkleRoot: zero, time: lastTime, bits: lastBits, nonce: 0)
            #expect(bitcoin.retargetedBits(first: first, last: last) == expected, "\(body.prefix(40))")
        }
        // arith_uint256's compact round trips and refusals (Core: SetCompact flags both).
        #expect(Target(bits: 0x1d00_ffff)?.bits == 0x1d00_ffff && Target(bits: 0x207f_ffff)?.bits == 0x207f_ffff)
        #expect(Target(bits: 0x0492_3456) == nil, "negative")
        #expect(Target(bits: 0xff12_3456) == nil, "overflow")
        #expect(Target(bits: 0x0112_3456)?.bits == 0x0112_0000 && Target(bits: 0x0500_9234)?.bits == 0x0500_9234)
    }

    @Test("Electrum's regtest headers: the main chain links from the genesis block at regtest's proof of work; a fork does not")
    func regtestHeaders() throws {
        let text = try Fixture.text("electrum/test_blockchain.py.txt")
        let pattern = try NSRegularExpression(pattern: #"'([A-Z])': deserialize_header\(bfh\("([0-9a-f]{160})"\), (\d+)\)"#)
        var headers: [String: BlockHeader] = [:]
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            headers[String(text[Range(match.range(at: 1), in: text)!])] = try BlockHeader(parsing: bytes(text[Range(match.range(at: 2), in: text)!]))
        }
        #expect(headers.count == 24)
        let regtest = try #require(ChainParameters.chain(genesisHash: "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"))
        #expect(headers["A"]?.hashHex == regtest.genesisHash)
        let main = "BCDEFOPQRSTU".map { headers[String($0)]! }
        try regtest.verify(main, from: 1, after: headers["A"]!.hash, latestTime: 2_000_000_000, bits: regtest.knownBits(at:))
        // G forks off F at height 6; O does not follow G.
        let fork = "BCDEFG".map { headers[String($0)]! } + [headers["P"]!]
        let error = #expect(throws: HeaderChainError.self) {
            try regtest.verify(fork, from: 1, after: headers["A"]!.hash, latestTime: 2_000_000_000, bits: regtest.knownBits(at:))
        }
        #expect(error?.height == 7 && error?.description.contains("does not follow block 6") == true)
        // Regtest fixes the bits: mainnet's limit is not regtest's.
        var harder = main
        harder[0].bits = 0x1d00_ffff
        #expect(throws: HeaderChainError.self) {
            try regtest.verify(harder, from: 1, after: headers["A"]!.hash, latestTime: 2_000_000_000, bits: regtest.knownBits(at:))
        }
    }

    @Test("Electrum's vectors: a 64-byte transaction in an inner node, and a left sibling that duplicates the node, are refused")
    func forgedBranches() throws {
        let text = try Fixture.text("electrum/test_verifier.py.txt")
        func strings(_ part: String) -> [String] {
            let pattern = try! NSRegularExpression(pattern: #"'([0-9a-f]+)'"#)
            return pattern.matches(in: part, range: NSRange(part.startIndex..., in: part)).map { String(part[Range($0.range(at: 1), in: part)!]) }
        }
        let first = section(of: text, from: "class TestVerifier_CVE_2017_12842", to: "class TestVerifier_CVE_2012_2459")
        let branch = strings(section(of: first, from: "MERKLE_BRANCH = [", to: "]"))
        let root = try #require(strings(section(of: first, from: "MERKLE_ROOT = ", to: "\n")).first)
        let valid = strings(section(of: first, from: "VALID_64_BYTE_TX = (", to: ")")).joined()
        #expect(branch.count == 2 && valid.count == 128)
        func branched(_ hashes: [String], _ position: Int) -> MerkleBranch { RecordedProof.merkleBranch(hashes, position: position) }
        // "Actually mined 64 byte tx should not raise" (position 3).
        let mined = try #require(try RawTransaction(hex: valid).txid)
        #expect(try branched(branch, 3).root(from: Self.internalOrder(mined)) == Self.internalOrder(root))
        // Its halves as a forged leaf and sibling, odd (7) and even (6) positions.
        func displayed(_ half: String) -> String { hex(bytes(half).reversed()) }
        let left = displayed(String(valid.prefix(64))), right = displayed(String(valid.suffix(64)))
        for (sibling, leaf, position) in [(left, right, 7), (right, left, 6)] {
            let error = #expect(throws: MerkleBranchError.self) { try branched([sibling] + branch, position).root(from: Self.internalOrder(leaf)) }
            #expect(error?.description.contains("CVE-2017-12842") == true)
        }
        let second = section(of: text, from: "class TestVerifier_CVE_2012_2459", to: "def test_malicious_left_sibling_duplicate")
        let duplicateBranch = strings(section(of: second, from: "MERKLE_BRANCH = [", to: "]"))
        let duplicateRoot = try #require(strings(section(of: second, from: "MERKLE_ROOT = ", to: "\n")).first)
        let txid = try #require(strings(section(of: second, from: "TXID = ", to: "\n")).first)
        #expect(try branched(duplicateBranch, 2).root(from: Self.internalOrder(txid)) == Self.internalOrder(duplicateRoot))
        let error = #expect(throws: MerkleBranchError.self) { try branched(duplicateBranch, 3).root(from: Self.internalOrder(txid)) }
        #expect(error?.description.contains("CVE-2012-2459") == true)
    }
}
