import Testing
import WalletWatchBitcoin

/// SPV against real mainnet blocks (SPEC.md section 21, issue 26): the blocks PyPI's bitcoinlib
/// 0.7.10 ships in its wheel (tests/block250000.pickle, block330000, block625007, block629999,
/// block722010: every transaction), read by bitcoinlib (header, hash, height, proof of work) and
/// by ElectrumX 2.0.0 (txids as an Electrum server indexes them, and the get_merkle branches it
/// would answer). walletwatch's Merkle code must reach each header's Merkle root, its branches
/// must be ElectrumX's and hold by Electrum's own verifier (Debian's python3-electrum), and each
/// header must meet its proof of work with the bits Electrum's checkpoints give its period
/// (Fixtures/PROVENANCE.md).
@Suite("SPV on real mainnet blocks (bitcoinlib's, read by bitcoinlib, ElectrumX and Electrum)")
struct RealBlockTests {
    static let bitcoin = ChainParameters.all.first { $0.name == "bitcoin" }!

    @Test("each block's txids lead to its header's Merkle root; walletwatch's branches are ElectrumX's, and they hold by Electrum's verifier")
    func merkleRoots() async throws {
        let blocks = try await Oracle.realBlocks()
        #expect(blocks.map(\.height) == [250_000, 330_000, 625_007, 629_999, 722_010])
        #expect(blocks.map(\.txids.count) == [156, 81, 3083, 2481, 2668])
        var requests: [[String: Any]] = []
        var expected: [String] = []
        for block in blocks {
            // bitcoinlib's reading of the header is walletwatch's.
            #expect(block.header.hashHex == block.hash && displayed(block.header.merkleRoot) == block.merkleRoot, "\(block.file)")
            let txids = block.txids.map(internalOrder)
            #expect(BlockHeader.merkleRoot(txids) == block.header.merkleRoot, "\(block.file): the root of its \(txids.count) txids")
            #expect(block.branches.count >= 5)
            for proof in block.branches {
                let ours = BlockHeader.merkleBranch(txids, index: proof.position)
                #expect(ours.map(displayed) == proof.hashes, "\(block.file) position \(proof.position): ElectrumX's branch")
                #expect(proof.root == block.merkleRoot)
                let branch = MerkleBranch(position: proof.position, hashes: ours)
                #expect(try branch.root(from: txids[proof.position]) == block.header.merkleRoot, "\(block.file) position \(proof.position)")
                // Another transaction at that place, or the branch at another place: another root
                // (or, for an odd level's last hash paired with its copy, refused).
                let other = (proof.position + 1) % txids.count
                #expect(try branch.root(from: txids[other]) != block.header.merkleRoot)
                #expect((try? MerkleBranch(position: proof.position ^ 1, hashes: ours).root(from: txids[proof.position])) != block.header.merkleRoot)
                requests.append(["op": "merkle", "txid": block.txids[proof.position], "branch": ours.map(displayed), "position": proof.position])
                expected.append(block.merkleRoot)
            }
            // A block with one txid left out, or two swapped, has another root.
            #expect(BlockHeader.merkleRoot(Array(txids.dropLast())) != block.header.merkleRoot)
            var swapped = txids
            swapped.swapAt(1, 2)
            #expect(BlockHeader.merkleRoot(swapped) != block.header.merkleRoot)
        }
        let answers = try await Oracle.electrum(requests)
        #expect(answers.map { $0["root"] as? String } == expected, "Electrum's SPV.hash_merkle_root")
    }

    @Test("each header meets its proof of work and carries the bits Electrum's checkpoints give its period, by walletwatch's rules and Electrum's")
    func headers() async throws {
        let blocks = try await Oracle.realBlocks()
        var requests: [[String: Any]] = []
        for block in blocks {
            let header = block.header
            #expect(block.meetsItsProofOfWork && header.meetsItsProofOfWork, "\(block.file)")
            #expect(header.bits == block.bits)
            // Below block 747,935 the checkpoints give every period's bits.
            #expect(Self.bitcoin.knownBits(at: block.height) == header.bits, "\(block.file)")
            try Self.bitcoin.verify([header], from: block.height, after: header.previousHash, latestTime: Int64(header.time) + 7200,
                                    bits: Self.bitcoin.knownBits(at:))
            requests.append(["op": "period_target", "height": block.height])
            requests.append(["op": "headers", "headers": [hex(header.serialized)], "after": header.previousHashHex, "height": block.height])

            // Another nonce: no work. Another period's bits: not this period's. Dated past the clock.
            var unworked = header
            unworked.nonce &+= 1
            #expect(!unworked.meetsItsProofOfWork)
            let error = #expect(throws: HeaderChainError.self) {
                try Self.bitcoin.verify([unworked], from: block.height, after: header.previousHash, latestTime: Int64(header.time) + 7200,
                                        bits: Self.bitcoin.knownBits(at:))
            }
            #expect(error?.description.contains("does not meet its proof of work") == true, "\(String(describing: error))")
            requests.append(["op": "headers", "headers": [hex(unworked.serialized)], "after": header.previousHashHex, "height": block.height])

            let otherPeriod = block.height < 300_000 ? block.height + 20 * 2016 : block.height - 20 * 2016
            let otherBits = try #require(Self.bitcoin.knownBits(at: otherPeriod))
            let misfit = #expect(throws: HeaderChainError.self) {
                try Self.bitcoin.verify([header], from: block.height, after: header.previousHash, latestTime: Int64(header.time) + 7200) { _ in otherBits }
            }
            #expect(misfit?.description.contains("where bitcoin's difficulty is") == true, "\(String(describing: misfit))")
            requests.append(["op": "headers", "headers": [hex(header.serialized)], "after": header.previousHashHex, "height": otherPeriod])

            let late = #expect(throws: HeaderChainError.self) {
                try Self.bitcoin.verify([header], from: block.height, after: header.previousHash, latestTime: Int64(header.time) - 1,
                                        bits: Self.bitcoin.knownBits(at:))
            }
            #expect(late?.height == block.height && late?.description.contains("more than two hours past the clock") == true)
        }
        let answers = try await Oracle.electrum(requests)
        for (index, block) in blocks.enumerated() {
            let period = answers[index * 4], accepted = answers[index * 4 + 1], unworked = answers[index * 4 + 2], misfit = answers[index * 4 + 3]
            #expect(period["bits"] as? Int == Int(block.header.bits), "\(block.file): Electrum's target for its period")
            #expect(period["target"] as? String == Target(bits: block.header.bits).map { hex($0.bigEndian) })
            #expect(accepted["ok"] as? Bool == true, "\(block.file): \(accepted)")
            #expect((unworked["reason"] as? String)?.contains("insufficient proof of work") == true, "\(block.file): \(unworked)")
            #expect((misfit["reason"] as? String)?.contains("bits mismatch") == true, "\(block.file): \(misfit)")
        }
    }
}
