/// What `month start` froze (ExecutionSnapshot): the plans and the allocation targets at S.
public struct ExecutionSnapshotData: Hashable, Sendable, Codable {
    public struct PlannedGoal: Hashable, Sendable, Codable {
        public let goalID: Int64
        public let name: String
        public let currency: Currency
        public let required: Int128
        public let custom: Int128?
        public let skipped: Bool
        public let planned: Int128

        public init(goalID: Int64, name: String, currency: Currency, required: Int128, custom: Int128?, skipped: Bool, planned: Int128) {
            self.goalID = goalID
            self.name = name
            self.currency = currency
            self.required = required
            self.custom = custom
            self.skipped = skipped
            self.planned = planned
        }
    }

    /// A target at S (only pairs with history at or before S).
    public struct Target: Hashable, Sendable, Codable {
        public let assetID: Int64
        public let goalID: Int64
        public let amount: Int128

        public init(assetID: Int64, goalID: Int64, amount: Int128) {
            self.assetID = assetID
            self.goalID = goalID
            self.amount = amount
        }
    }

    public let capturedAt: Instant
    public let displayCurrency: Currency
    public let goals: [PlannedGoal]
    /// The targets as they stood when the month started (a record for the user; the calculator
    /// reads the history, which also holds rows dated before the start but written after it).
    public let targets: [Target]
    /// The sum of the plans in the display currency; nil when a rate was missing.
    public let totalPlannedDisplay: Int128?

    public init(capturedAt: Instant, displayCurrency: Currency, goals: [PlannedGoal], targets: [Target], totalPlannedDisplay: Int128?) {
        self.capturedAt = capturedAt
        self.displayCurrency = displayCurrency
        self.goals = goals
        self.targets = targets
        self.totalPlannedDisplay = totalPlannedDisplay
    }
}
