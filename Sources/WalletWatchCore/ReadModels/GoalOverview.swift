/// A goal with each asset that holds a target for it.
public struct GoalOverview: Hashable, Sendable {
    /// One asset's part in the goal, in the asset's currency.
    public struct Share: Hashable, Sendable {
        public let asset: Asset
        public let allocated: Int128
        public let funded: Int128

        public init(asset: Asset, allocated: Int128, funded: Int128) {
            self.asset = asset
            self.allocated = allocated
            self.funded = funded
        }
    }

    public let goal: Goal
    public let shares: [Share]

    public init(goal: Goal, shares: [Share]) {
        self.goal = goal
        self.shares = shares
    }
}
