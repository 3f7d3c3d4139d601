/// What one source's pass changed.
public struct IngestCounts: Hashable, Sendable {
    /// Transactions seen for the first time.
    public var new = 0
    /// Known transactions whose status, amount, date or fee changed (updated in place).
    public var updated = 0
    /// Unconfirmed transactions the source no longer reports, marked failed.
    public var dropped = 0
    /// Transactions Rule 1 allocated to a goal.
    public var autoAllocated = 0

    public init(new: Int = 0, updated: Int = 0, dropped: Int = 0, autoAllocated: Int = 0) {
        self.new = new
        self.updated = updated
        self.dropped = dropped
        self.autoAllocated = autoAllocated
    }
}
