/// The chain's controls in Swift: each method does what the matching `/control/chain` endpoint does.
extension Simulator {
    /// A real payment from the faucet to `address` (any network's), of `value` sats, mined at
    /// `height` or left in the mempool, with `fee` sats (default about 1 sat/vB); returns it.
    @discardableResult
    public func pay(_ address: String, value: Int64, height: Int? = nil, fee: Int64? = nil) async throws -> EsploraTxSpec {
        try await state.pay(PaymentScenario(address: address, value: value, blockHeight: height, fee: fee))
    }

    /// Mines every mempool transaction into the next block, then `blocks - 1` empty ones; returns
    /// the txids mined.
    @discardableResult
    public func mine(blocks: Int = 1) async throws -> [String] {
        try await state.mine(blocks: blocks)
    }

    /// Replaces a mempool payment (RBF, BIP125): a new transaction spends the same inputs with a
    /// higher fee (`fee`, default the old one plus 1,000 sats, taken from its last output: the
    /// change), or pays `outputs` instead. The old one and its descendants leave the mempool.
    /// Returns the replacement and the txids evicted.
    @discardableResult
    public func replace(_ txid: String, fee: Int64? = nil, outputs: [EsploraTxIO]? = nil) async throws -> (replacement: EsploraTxSpec, evicted: [String]) {
        try await state.replace(txid, fee: fee, outputs: outputs)
    }

    /// Replaces the last `depth` blocks with `blocks` new ones (default `depth + 1`) with new
    /// hashes; their transactions go back to the mempool, are dropped, or are mined again in the
    /// new tip block.
    @discardableResult
    public func reorg(depth: Int, blocks: Int? = nil, transactions: ReorgDisposition = .mempool) async throws -> ReorgResult {
        try await state.reorg(depth: depth, blocks: blocks, transactions: transactions)
    }

    /// The chain's tip height.
    public var tipHeight: Int {
        get async { await state.chainTip }
    }

    /// The hash of block `height` (the real one on a real chain).
    public func blockHash(_ height: Int) async -> String {
        await state.blockHash(height)
    }

    /// The faucet's address: every coinbase pays it, and the simulator's payments spend from it.
    public var faucetAddress: String {
        get async { await state.chain.faucet.address }
    }
}
