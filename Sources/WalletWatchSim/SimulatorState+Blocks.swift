/// What Esplora and the Core face read of the chain's blocks and transactions.
extension SimulatorState {
    /// The hash of block `height`.
    func blockHash(_ height: Int) -> String { chain.blockHash(height) }

    /// Up to ten blocks from `height` down, newest first, as electrs lists them.
    func blockSummaries(downFrom height: Int) -> [BlockSummary] {
        stride(from: height, through: max(0, height - 9), by: -1).map { chain.blockSummary($0) }
    }

    /// The block (hash and time) of each of `list`, nil for a mempool one: what Esplora's
    /// `status` shows. The transactions are expanded outside the actor, where requests run in parallel.
    func stamps(of list: [EsploraTxSpec]) -> [BlockStamp?] {
        list.map { chain.stamp(of: $0) }
    }

    /// A real transaction's bytes (`/tx/:txid/hex`, `blockchain.transaction.get`).
    func rawTransaction(_ txid: String) -> [UInt8]? { chain.ledger.transaction(txid)?.bytes }
}
