import WalletWatchBitcoin

/// What the Electrum face reads of the chain, its faults and its request log.
extension SimulatorState {
    /// The tip: its height, its header's bytes and its hash.
    func electrumTip() -> (height: Int, header: [UInt8], hash: String) {
        let header = chain.header(at: chain.tip)
        return (chain.tip, header?.serialized ?? [], header?.hashHex ?? "")
    }

    /// Up to `count` headers from `start` (fewer at the tip).
    func electrumHeaders(from start: Int, count: Int) -> [[UInt8]] {
        guard count > 0, start <= chain.tip else { return [] }
        return (start...min(chain.tip, start + count - 1)).compactMap { chain.header(at: $0)?.serialized }
    }

    func electrumHistory(_ scripthash: String) -> [ScriptHistoryItem] { chain.ledger.history(of: scripthash.lowercased()) }

    /// The txid of the coinbase of block `height`.
    func electrumCoinbase(atHeight height: Int) -> String? { chain.ledger.coinbases[height] }

    /// The headers from `height` to the tip with block `height` dated `time` and every one of
    /// them mined again on the one before (regtest's work, about two tries a header): a chain
    /// that links, about a block time that is false (the `retimed` fault).
    func electrumRetimedHeaders(from height: Int, time: UInt32) -> [BlockHeader] {
        guard height >= 1, height <= chain.tip, var previous = chain.header(at: height - 1)?.hash else { return [] }
        var headers: [BlockHeader] = []
        for at in height...chain.tip {
            guard var header = chain.header(at: at) else { break }
            header.previousHash = previous
            if at == height { header.time = time }
            header.nonce = 0
            while header.hash[31] >= 0x7f { header.nonce += 1 }
            previous = header.hash
            headers.append(header)
        }
        return headers
    }

    /// The Merkle branch a forging server gives for `txid` in block `height`: as if it were
    /// appended to the block's transactions (a tree whose root is not the header's).
    func electrumForgedMerkle(_ txid: String, height: Int) throws(ElectrumError) -> (position: Int, branch: [String]) {
        let txids = try blockTxids(height) + [txid]
        return (txids.count - 1, branch(txids, txids.count - 1))
    }

    func electrumUnspent(_ scripthash: String) -> [ScriptUnspent] { chain.ledger.unspent(of: scripthash.lowercased()) }

    func electrumBalance(_ scripthash: String) -> (confirmed: Int64, unconfirmed: Int64) { chain.ledger.balance(of: scripthash.lowercased()) }

    /// Each script's status, keyed as asked.
    func electrumStatuses(_ scripthashes: [String]) -> [String: String?] {
        Dictionary(scripthashes.map { ($0, ElectrumStatus.of(chain.ledger.history(of: $0.lowercased()))) }) { first, _ in first }
    }

    /// Where `txid` is in block `height`, and its merkle branch (displayed form), as ElectrumX
    /// answers `blockchain.transaction.get_merkle`.
    func electrumMerkle(_ txid: String, height: Int) throws(ElectrumError) -> (position: Int, branch: [String]) {
        let txids = try blockTxids(height)
        guard let position = txids.firstIndex(of: txid) else { throw .bad("tx \(txid) not in block at height \(ElectrumError.grouped(height))") }
        return (position, branch(txids, position))
    }

    /// The transaction at `position` of block `height`, and its merkle branch.
    func electrumTransaction(atHeight height: Int, position: Int) throws(ElectrumError) -> (txid: String, branch: [String]) {
        let txids = try blockTxids(height)
        guard txids.indices.contains(position) else {
            throw .bad("no tx at position \(ElectrumError.grouped(position)) in block at height \(ElectrumError.grouped(height))")
        }
        return (txids[position], branch(txids, position))
    }

    private func blockTxids(_ height: Int) throws(ElectrumError) -> [String] {
        guard height <= chain.tip else { throw ElectrumError.outOfRange(height) }
        return height == 0 ? [Network.genesisCoinbase.txid ?? ""] : chain.ledger.block(at: height).map(\.txid)
    }

    private func branch(_ txids: [String], _ position: Int) -> [String] {
        BlockHeader.merkleBranch(txids.map { Array((Hex.decode($0) ?? []).reversed()) }, index: position).map { Hex.encode($0.reversed()) }
    }

    // MARK: faults and the request log

    func addElectrumFault(_ fault: ElectrumFault) throws { try electrumFaults.add(fault) }

    func clearElectrumFaults() { electrumFaults.clear() }

    /// The first Electrum fault that matches `method`, counting it as served.
    func takeElectrumFault(for method: String) -> ElectrumFaultKind? { electrumFaults.take(for: method) }

    func recordElectrum(_ record: ElectrumRequestRecord) {
        if electrumLog.count >= SimulatorState.logLimit { electrumLog.removeFirst(electrumLog.count / 10) }
        electrumLog.append(record)
    }

    func resetElectrumRequests() { electrumLog.removeAll() }
}
