/// The last on-chain balance reported by a source (a barkd on-chain wallet or Esplora addresses).
public struct SourceOnchainBalance: Hashable, Sendable {
    public var source: String
    public var balance: OnchainBalance
    public var lastUpdated: Instant

    public init(source: String, balance: OnchainBalance, lastUpdated: Instant) {
        self.source = source
        self.balance = balance
        self.lastUpdated = lastUpdated
    }
}
