/// What `month complete` froze (CompletedExecution): never updated afterwards.
public struct CompletedExecutionData: Hashable, Sendable, Codable {
    public struct GoalResult: Hashable, Sendable, Codable {
        public let goalID: Int64
        public let name: String
        public let currency: Currency
        public let planned: Int128
        public let contributed: Int128
        public let remaining: Int128

        public init(goalID: Int64, name: String, currency: Currency, planned: Int128, contributed: Int128, remaining: Int128) {
            self.goalID = goalID
            self.name = name
            self.currency = currency
            self.planned = planned
            self.contributed = contributed
            self.remaining = remaining
        }
    }

    /// One asset's contribution to one goal: in the asset's currency, and converted.
    public struct Contribution: Hashable, Sendable, Codable {
        public let goalID: Int64
        public let assetID: Int64
        public let assetName: String
        public let assetCurrency: Currency
        public let amount: Int128
        public let fromTransactions: Int128
        public let fromReallocations: Int128
        /// In the goal's currency; nil when no rate was known.
        public let converted: Int128?

        public init(goalID: Int64, assetID: Int64, assetName: String, assetCurrency: Currency, amount: Int128,
                    fromTransactions: Int128, fromReallocations: Int128, converted: Int128?) {
            self.goalID = goalID
            self.assetID = assetID
            self.assetName = assetName
            self.assetCurrency = assetCurrency
            self.amount = amount
            self.fromTransactions = fromTransactions
            self.fromReallocations = fromReallocations
            self.converted = converted
        }
    }

    /// A rate as it was when the month was completed.
    public struct FrozenRate: Hashable, Sendable, Codable {
        public let base: Currency
        public let quote: Currency
        public let rate: String
        public let fetchedAt: Instant
        public let provider: String

        public init(base: Currency, quote: Currency, rate: String, fetchedAt: Instant, provider: String) {
            self.base = base
            self.quote = quote
            self.rate = rate
            self.fetchedAt = fetchedAt
            self.provider = provider
        }
    }

    public let month: MonthLabel
    public let startedAt: Instant
    public let completedAt: Instant
    public let displayCurrency: Currency
    public let goals: [GoalResult]
    public let contributions: [Contribution]
    public let rates: [FrozenRate]

    public init(month: MonthLabel, startedAt: Instant, completedAt: Instant, displayCurrency: Currency, goals: [GoalResult],
                contributions: [Contribution], rates: [FrozenRate]) {
        self.month = month
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.displayCurrency = displayCurrency
        self.goals = goals
        self.contributions = contributions
        self.rates = rates
    }
}
