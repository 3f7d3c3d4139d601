import WalletWatchCore

extension WalletAddress {
    /// The address by its place in the wallet ("receive address 5", "change address 0",
    /// "listed address 2"), for messages that leave the machine or land in logs (a webhook's
    /// `source.failing`, the daemon's journal): they name a wallet's source and asset, never
    /// its addresses or scripts, which anyone reading them could look up on a public explorer.
    public var label: String {
        switch chain {
        case .receive: "receive address \(index)"
        case .change: "change address \(index)"
        case .listed: "listed address \(index + 1)"
        }
    }
}
