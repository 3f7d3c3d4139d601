import Foundation
import WalletWatchCore

/// Where a month is in its cycle.
public enum ExecutionState: String, Sendable, Codable {
    /// Planning: plans are recomputed on every read, nothing is tracked.
    case draft
    /// Tracking contributions since `startedAt`; plans frozen.
    case executing
    /// Completed: every figure frozen in the completed execution.
    case closed
}

/// One month's record (MonthlyExecutionRecord).
public struct ExecutionRecord: Hashable, Sendable {
    public let id: Int64
    public let month: MonthLabel
    public let state: ExecutionState
    public let startedAt: Instant?
    public let completedAt: Instant?
    /// Until when the last step (start or complete) can be undone.
    public let canUndoUntil: Instant?
    public let goalIDs: [Int64]
}

/// The user's choices for a goal in a month: a custom amount or a skip.
public struct PlanOverride: Hashable, Sendable {
    public let goalID: Int64
    public let custom: Int64?
    public let skipped: Bool
}

/// What `month start` froze (ExecutionSnapshot): the plans and the allocation targets at S.
public struct ExecutionSnapshotData: Hashable, Sendable, Codable {
    public struct PlannedGoal: Hashable, Sendable, Codable {
        public let goalID: Int64
        public let name: String
        public let currency: Currency
        public let required: Int64
        public let custom: Int64?
        public let skipped: Bool
        public let planned: Int64

        public init(goalID: Int64, name: String, currency: Currency, required: Int64, custom: Int64?, skipped: Bool, planned: Int64) {
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
        public let amount: Int64

        public init(assetID: Int64, goalID: Int64, amount: Int64) {
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
    public let totalPlannedDisplay: Int64?

    public init(capturedAt: Instant, displayCurrency: Currency, goals: [PlannedGoal], targets: [Target], totalPlannedDisplay: Int64?) {
        self.capturedAt = capturedAt
        self.displayCurrency = displayCurrency
        self.goals = goals
        self.targets = targets
        self.totalPlannedDisplay = totalPlannedDisplay
    }
}

/// What `month complete` froze (CompletedExecution): never updated afterwards.
public struct CompletedExecutionData: Hashable, Sendable, Codable {
    public struct GoalResult: Hashable, Sendable, Codable {
        public let goalID: Int64
        public let name: String
        public let currency: Currency
        public let planned: Int64
        public let contributed: Int64
        public let remaining: Int64

        public init(goalID: Int64, name: String, currency: Currency, planned: Int64, contributed: Int64, remaining: Int64) {
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
        public let amount: Int64
        public let fromTransactions: Int64
        public let fromReallocations: Int64
        /// In the goal's currency; nil when no rate was known.
        public let converted: Int64?

        public init(goalID: Int64, assetID: Int64, assetName: String, assetCurrency: Currency, amount: Int64,
                    fromTransactions: Int64, fromReallocations: Int64, converted: Int64?) {
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
