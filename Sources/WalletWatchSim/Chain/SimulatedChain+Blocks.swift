import WalletWatchBitcoin

/// Where a mined transaction's block is, as Esplora's `status` shows it.
struct BlockStamp: Sendable, Hashable {
    /// The block's hash (displayed form).
    let hash: String
    /// The block's time, unix seconds.
    let time: Int64
}

extension SimulatedChain {
    /// The time of block `height`: the genesis block's own, one a confirmation set, or the
    /// chain's clock (ten minutes a block).
    func blockTime(_ height: Int) -> Int64 {
        if isReal, height == 0 { return Int64(network.genesisHeader.time) }
        return blockTimes[height] ?? chainTime.time(ofHeight: height)
    }

    /// The hash of block `height` (up to the tip): the real one, or a made-up one of the right
    /// shape (block 0: Bitcoin's genesis) on a chain that is not real.
    mutating func blockHash(_ height: Int) -> String {
        guard isReal, height <= tip else { return Fingerprint.blockHash(height: height, generation: generations[height] ?? 0) }
        return header(at: height)?.hashHex ?? ""
    }

    /// A real chain's header at `height` (up to the tip), built if it is not yet.
    mutating func header(at height: Int) -> BlockHeader? {
        guard isReal, height >= 0, height <= tip else { return nil }
        if height > blocks.builtHeight {
            let (ledger, times, chainTime, network) = (ledger, blockTimes, chainTime, network)
            blocks.build(through: tip) { height in
                BlockStore.Content(txids: ledger.block(at: height).map { Array((Hex.decode($0.txid) ?? []).reversed()) },
                                   time: UInt32(clamping: times[height] ?? (height == 0 ? Int64(network.genesisHeader.time) : chainTime.time(ofHeight: height))))
            }
        }
        return blocks.headers[height]
    }

    /// Drops a real chain's headers from `height` up before block `height` changes, keeping the
    /// old blocks servable by hash.
    mutating func retireBlocks(from height: Int) {
        guard isReal, height <= blocks.builtHeight else { return }
        let ledger = ledger
        blocks.retire(from: height) { ledger.block(at: $0).map(\.bytes) }
    }

    /// The block and time Esplora shows for a mined transaction; nil for a mempool one. A real
    /// transaction on a real chain has its block's time.
    mutating func stamp(of spec: EsploraTxSpec) -> BlockStamp? {
        guard let height = spec.blockHeight else { return nil }
        let time = isReal && ledger.transaction(spec.txid) != nil ? blockTime(height) : spec.blockTime ?? blockTime(height)
        return BlockStamp(hash: blockHash(height), time: time)
    }

    /// Block `height` of a real chain (up to the tip) as a node serves it.
    mutating func rawBlock(at height: Int) -> [UInt8]? {
        guard height != 0 else { return isReal ? blocks.genesis : nil }
        guard let header = header(at: height) else { return nil }
        return header.block(withTransactions: ledger.block(at: height).map(\.bytes))
    }

    /// A block of a real chain by its hash: its bytes, its height, and whether it is on the
    /// chain (not replaced by a reorg).
    mutating func block(hash: String) -> (bytes: [UInt8], height: Int, current: Bool)? {
        _ = header(at: tip)
        if let height = blocks.height(ofHash: hash), let bytes = rawBlock(at: height) { return (bytes, height, true) }
        return blocks.staleBlock(hash).map { ($0.bytes, $0.height, false) }
    }

    /// Esplora's summary of block `height`: the real header's fields on a real chain.
    mutating func blockSummary(_ height: Int) -> BlockSummary {
        guard isReal, let header = header(at: height) else {
            return BlockSummary(id: blockHash(height), height: height, timestamp: blockTime(height),
                                merkleRoot: Fingerprint.hash256("merkle:\(height)"),
                                previousblockhash: height > 0 ? blockHash(height - 1) : nil)
        }
        let transactions = height == 0 ? [Network.genesisCoinbase] : ledger.block(at: height).map(\.raw)
        let total = transactions.reduce(0) { $0 + ($1.serialized?.count ?? 0) }
        let base = transactions.reduce(0) { $0 + ($1.serializedWithoutWitness?.count ?? 0) }
        let overhead = BlockHeader.size + (transactions.count < 0xfd ? 1 : 3)
        return BlockSummary(
            id: header.hashHex, height: height, version: Int(header.version), timestamp: Int64(header.time), txCount: transactions.count,
            size: overhead + total, weight: (overhead + base) * 3 + overhead + total, merkleRoot: Hex.encode(header.merkleRoot.reversed()),
            previousblockhash: height > 0 ? header.previousHashHex : nil, nonce: Int(header.nonce), bits: Int(header.bits))
    }
}
