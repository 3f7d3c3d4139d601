import Foundation
import Synchronization
import WalletWatchCore
import WalletWatchStore

/// A month's figures as every view shows them (`month status`, `watch`, the web page).
public struct MonthStatus: Sendable {
    /// One asset's part in a goal's contribution.
    public struct AssetPart: Sendable {
        public let assetID: Int64
        public let assetName: String
        public let assetCurrency: Currency
        public let contribution: ProgressCalculator.Contribution
        /// In the goal's currency; nil without a rate.
        public let converted: Int128?
    }

    /// One goal's line.
    public struct GoalLine: Sendable {
        public let goalID: Int64
        public let name: String
        public let currency: Currency
        public let figures: GoalMonthFigures
        /// `remaining` in the display currency; nil without a rate.
        public let remainingDisplay: Int128?
        public let parts: [AssetPart]
    }

    public let month: MonthLabel
    public let state: ExecutionState
    public let startedAt: Instant?
    public let completedAt: Instant?
    public let displayCurrency: Currency
    public let goals: [GoalLine]
    public let plannedDisplay: Int128?
    public let contributedDisplay: Int128?
    public let remainingDisplay: Int128?
    /// The oldest rate used.
    public let ratesAsOf: Instant?
    public let ratesStale: Bool
    /// Pairs that had no rate.
    public let missingRates: [CurrencyPair]
    /// Things to tell the user on stderr.
    public let warnings: [String]
}
