import Foundation
import WalletWatchCore
import WalletWatchStore

/// The portfolio figures of `walletwatch report`, the web page's charts and `report --svg`: per
/// asset and overall in one currency, and each goal's achievement (SPEC.md sections 9 and 13).
public struct PortfolioReport: Sendable {
    /// One asset's line.
    public struct AssetLine: Sendable {
        public let asset: PortfolioAsset
        public let figures: AssetFigures
    }

    /// The selected assets together: sums of their lines (nil when one is unknown) and the
    /// time-weighted return of the whole.
    public struct Total: Sendable {
        public let value: Int128?
        public let costBasis: Int128?
        public let unrealizedGain: Int128?
        public let realizedGain: Int128?
        public let timeWeightedReturn: Decimal?
    }

    /// One goal's achievement now.
    public struct GoalLine: Sendable {
        public let goal: Goal
        public let progress: GoalProgress
        /// The distance in the report's currency; nil without a rate.
        public let distanceDisplay: Int128?
    }

    public let now: Instant
    public let currency: Currency
    public let assets: [AssetLine]
    public let total: Total
    public let goals: [GoalLine]
    /// Things to tell the user on stderr (missing rates above all).
    public let warnings: [String]
    /// What the timelines and charts are computed from.
    public let data: PortfolioData
    public let pricer: Pricer
    /// Which computation of the live views' cache this is (0 outside it): a view may keep what
    /// it drew from a report until the revision changes.
    public var revision = 0

    /// The same report, marked as the cache's computation `revision`.
    func withRevision(_ revision: Int) -> PortfolioReport {
        var copy = self
        copy.revision = revision
        return copy
    }

    /// Values at every transaction or rate date of the selected assets, and now.
    public func eventTimeline() -> [ValueTimeline.Point] {
        ValueTimeline.events(of: assets.map(\.asset), pricer: pricer, now: now)
    }

    /// Values at the end of every day, from the first transaction through today.
    public func dailyTimeline() -> [ValueTimeline.Point] {
        ValueTimeline.daily(of: assets.map(\.asset), pricer: pricer, now: now)
    }
}
