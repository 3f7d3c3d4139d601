/// The last Ark balance reported by a barkd source.
public struct SourceArkBalance: Hashable, Sendable {
    public var source: String
    public var balance: ArkBalance
    public var lastUpdated: Instant

    public init(source: String, balance: ArkBalance, lastUpdated: Instant) {
        self.source = source
        self.balance = balance
        self.lastUpdated = lastUpdated
    }
}
