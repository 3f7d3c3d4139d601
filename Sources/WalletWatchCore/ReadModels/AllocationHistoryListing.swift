/// One allocation-history row with the names a file needs (`export csv --what allocations`).
public struct AllocationHistoryListing: Hashable, Sendable {
    public let asset: String
    public let currency: Currency
    public let goal: String
    public let amount: Int128
    public let timestamp: Instant
    public let createdAt: Instant
    public let reason: AllocationReason
    public let txid: String?

    public init(asset: String, currency: Currency, goal: String, amount: Int128, timestamp: Instant, createdAt: Instant, reason: AllocationReason, txid: String?) {
        self.asset = asset
        self.currency = currency
        self.goal = goal
        self.amount = amount
        self.timestamp = timestamp
        self.createdAt = createdAt
        self.reason = reason
        self.txid = txid
    }
}
