/// The chain's mutations, each followed by a word to the Electrum face's subscribers.
extension SimulatorState {
    func addEsploraTransaction(_ transaction: EsploraTxSpec) throws {
        try chain.add(transaction)
        chainChanged()
    }

    /// Evicts a mempool transaction and those spending it; the txids evicted.
    func evictEsploraTransaction(_ txid: String) throws -> [String] {
        defer { chainChanged() }
        return try chain.evict(txid)
    }

    func confirmEsploraTransaction(_ txid: String, height: Int, time: Int64?) throws {
        try chain.confirm(txid, height: height, time: time)
        chainChanged()
    }

    func setChainTip(_ height: Int) throws {
        try chain.setTip(height)
        chainChanged()
    }

    /// A real payment from the faucet.
    func pay(_ payment: PaymentScenario) throws -> EsploraTxSpec {
        defer { chainChanged() }
        return try chain.pay([EsploraTxIO(address: payment.address, value: payment.value)], height: payment.blockHeight, fee: payment.fee)
    }

    /// Mines the mempool into the next block and `blocks - 1` empty ones; the txids mined.
    func mine(blocks: Int) throws -> [String] {
        defer { chainChanged() }
        return try chain.mine(blocks: blocks)
    }

    /// Replaces a mempool transaction (RBF); the replacement and the txids evicted.
    func replace(_ txid: String, fee: Int64?, outputs: [EsploraTxIO]?) throws -> (replacement: EsploraTxSpec, evicted: [String]) {
        defer { chainChanged() }
        return try chain.replace(txid, fee: fee, outputs: outputs)
    }

    /// Replaces the last blocks (see ``SimulatedChain/reorg(depth:blocks:transactions:)``).
    func reorg(depth: Int, blocks: Int?, transactions: ReorgDisposition) throws -> ReorgResult {
        defer { chainChanged() }
        return try chain.reorg(depth: depth, blocks: blocks, transactions: transactions)
    }

    /// What `GET /control/chain` shows.
    func chainSummary() -> ChainSummary {
        ChainSummary(real: chain.isReal, network: chain.network.rawValue, tipHeight: chain.tip, tipHash: chain.blockHash(chain.tip),
                     genesisHash: chain.blockHash(0), faucetAddress: chain.faucet.address,
                     mempool: chain.esplora.mempoolTxids)
    }

    // MARK: watching

    /// A stream that yields once after each change of the chain (coalesced when several come
    /// before it is read), until the simulator stops or the caller stops reading.
    func chainChanges() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = nextWaiterID
        nextWaiterID += 1
        chainWatchers[id] = continuation
        continuation.onTermination = { _ in Task { await self.stopWatching(id) } }
        if isStopping { continuation.finish() }
        return stream
    }

    private func stopWatching(_ id: Int) {
        chainWatchers[id] = nil
    }

    /// Tells every watcher the chain changed.
    func chainChanged() {
        for watcher in chainWatchers.values { watcher.yield() }
    }
}

/// What `GET /control/chain` answers.
struct ChainSummary: Encodable, Sendable {
    var real: Bool
    var network: String
    var tipHeight: Int
    var tipHash: String
    var genesisHash: String
    var faucetAddress: String
    var mempool: [String]

    private enum CodingKeys: String, CodingKey {
        case real, network, tipHeight = "tip_height", tipHash = "tip_hash", genesisHash = "genesis_hash"
        case faucetAddress = "faucet_address", mempool
    }
}
