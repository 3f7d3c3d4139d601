import WalletWatchCore
import WalletWatchStore

/// What the live views show, from the same calculator as `month status`: per goal planned,
/// contributed and remaining; the month's total; each asset's balance with its age and pending
/// amount; the last ingest of each source; the latest transactions with their tags.
public struct Dashboard: Sendable {
    /// One configured source and how its last ingest went.
    public struct SourceLine: Sendable {
        public let name: String
        public let kind: SourceConfig.Kind
        public let lastRun: IngestRun?
    }

    public let now: Instant
    public let status: MonthStatus
    public let assets: [AssetOverview]
    public let sources: [SourceLine]
    /// The latest transactions, each with its value in the display currency at its date.
    public let latest: [TransactionListing]
    public let timeZone: String
    /// The portfolio figures (the views draw its charts: value over time, goals' funded values
    /// over time); nil when they could not be computed (the reason is logged).
    public let portfolio: PortfolioReport?
    /// The saving plans as stored (the views show the next one due).
    public let savingPlans: [SavingPlanListing]

    /// How many transactions the views list.
    public static let latestCount = 10
}
