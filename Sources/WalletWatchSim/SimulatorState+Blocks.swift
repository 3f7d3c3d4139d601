/// What Esplora and the Core face read of the chain's blocks and transactions.
extension SimulatorState {
    /// The hash of block `height`.
    func blockHash(_ height: Int) -> String { chain.blockHash(height) }

    /// Up to ten blocks from `height` down, newest first, as electrs lists them.
    func blockSummaries(downFrom height: Int) -> [BlockSummary] {
        stride(from: height, through: max(0, height - 9), by: -1).map { chain.blockSummary($0) }
    }

    /// `list` as Esplora serves it, each mined one with its block's hash and time.
    func esploraTransactions(_ list: [EsploraTxSpec]) -> [EsploraTransaction] {
        list.map { EsploraTransaction($0, stamp: chain.stamp(of: $0)) }
    }

    /// A real transaction's bytes (`/tx/:txid/hex`, `blockchain.transaction.get`).
    func rawTransaction(_ txid: String) -> [UInt8]? { chain.ledger.transaction(txid)?.bytes }
}
