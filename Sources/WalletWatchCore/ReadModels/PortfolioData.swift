/// What the portfolio figures, timelines and charts read, taken in one consistent snapshot.
public struct PortfolioData: Sendable {
    /// Every asset with its confirmed transactions, by name.
    public let assets: [PortfolioAsset]
    /// The rate history between the requested currencies.
    public let rates: [ExchangeRate]
    /// Every allocation-history row, in time order (ties: in the order written).
    public let targetChanges: [GoalTimeline.TargetChange]

    public init(assets: [PortfolioAsset], rates: [ExchangeRate], targetChanges: [GoalTimeline.TargetChange]) {
        self.assets = assets
        self.rates = rates
        self.targetChanges = targetChanges
    }
}
