/// An asset with its balance and its targets, as `asset list/show` and the views show it.
public struct AssetOverview: Hashable, Sendable {
    /// One goal's target on this asset.
    public struct Allocation: Hashable, Sendable {
        public let goal: Goal
        public let amount: Int128

        public init(goal: Goal, amount: Int128) {
            self.goal = goal
            self.amount = amount
        }
    }

    public let asset: Asset
    public let balance: AssetBalance
    /// Targets of active and finished goals (cancelled goals hold none), alphabetically.
    public let allocations: [Allocation]
    public let summary: AllocationSummary

    public init(asset: Asset, balance: AssetBalance, allocations: [Allocation], summary: AllocationSummary) {
        self.asset = asset
        self.balance = balance
        self.allocations = allocations
        self.summary = summary
    }
}
