/// One row of an asset's allocation history, with its goal's name.
public struct AllocationHistoryEntry: Hashable, Sendable {
    public let goal: String
    public let amount: Int128
    public let timestamp: Instant
    public let reason: AllocationReason
    public let txid: String?

    public init(goal: String, amount: Int128, timestamp: Instant, reason: AllocationReason, txid: String?) {
        self.goal = goal
        self.amount = amount
        self.timestamp = timestamp
        self.reason = reason
        self.txid = txid
    }
}
