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
        public let value: Int64?
        public let costBasis: Int64?
        public let unrealizedGain: Int64?
        public let realizedGain: Int64?
        public let timeWeightedReturn: Decimal?
    }

    /// One goal's achievement now.
    public struct GoalLine: Sendable {
        public let goal: Goal
        public let progress: GoalProgress
        /// The distance in the report's currency; nil without a rate.
        public let distanceDisplay: Int64?
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

    /// Values at every transaction or rate date of the selected assets, and now.
    public func eventTimeline() -> [ValueTimeline.Point] {
        ValueTimeline.events(of: assets.map(\.asset), pricer: pricer, now: now)
    }

    /// Values at the end of every day, from the first transaction through today.
    public func dailyTimeline() -> [ValueTimeline.Point] {
        ValueTimeline.daily(of: assets.map(\.asset), pricer: pricer, now: now)
    }
}

extension Engine {
    /// The portfolio report in `currency` (default: the display currency), for one asset or all.
    /// Rates are refreshed first when needed (`refresh`); figures use the rate history: the
    /// price at a date is the latest rate at or before it, and a date without one makes the
    /// figures that need it unknown (nil, with a warning), never zero.
    public func portfolioReport(assetName: String? = nil, currency: Currency? = nil, refresh: RateRefresh = .ifNeeded) async throws -> PortfolioReport {
        let display = try currency ?? displayCurrency()
        let selectedID = try assetName.map { try database.asset(named: $0).id! }
        let overviews = try database.goalOverviews().filter { $0.goal.status != .cancelled }
        let assetCurrencies = Set(try database.assets().map(\.currency))
        var needed = Set(assetCurrencies.map { CurrencyPair(base: $0, quote: display) })
        for overview in overviews {
            needed.insert(CurrencyPair(base: overview.goal.currency, quote: display))
            for share in overview.shares { needed.insert(CurrencyPair(base: share.asset.currency, quote: overview.goal.currency)) }
        }
        let rates = await self.rates(for: needed, refresh: refresh)
        let now = clock.now
        let currencies = assetCurrencies.union(overviews.map(\.goal.currency)).union([display, .btc])
        let data = try database.portfolioData(rateCurrencies: currencies)
        let pricer = Pricer(history: RateHistory(data.rates), display: display)
        let selected = data.assets.filter { selectedID == nil || $0.id == selectedID }
        let lines = selected.map { PortfolioReport.AssetLine(asset: $0, figures: PortfolioCalculator.figures(of: $0, pricer: pricer, now: now)) }

        var warnings = rates.warnings
        for line in lines {
            guard let gap = line.figures.missingPrice else { continue }
            warnings.append("no \(gap.pair) rate at or before \(gap.instant.iso8601) for '\(line.asset.name)': figures that need it are unknown (null); `walletwatch rates import FILE` adds older daily prices")
        }
        let total = PortfolioReport.Total(
            value: Self.sum(lines.map(\.figures.value)), costBasis: Self.sum(lines.map(\.figures.costBasis)),
            unrealizedGain: Self.sum(lines.map(\.figures.unrealizedGain)), realizedGain: Self.sum(lines.map(\.figures.realizedGain)),
            timeWeightedReturn: (try? PortfolioCalculator.timeWeightedReturn(of: selected, pricer: pricer, now: now).get()) ?? nil)

        var trail = ConversionTrail(table: rates.table)
        let goals = overviews.map { overview in
            let progress = self.progress(of: overview, converter: rates.table)
            return PortfolioReport.GoalLine(goal: overview.goal, progress: progress,
                                            distanceDisplay: progress.distance.flatMap { trail.convert($0, from: overview.goal.currency, to: display) })
        }
        let missingForGoals = Set(goals.flatMap(\.progress.missingRates)).sorted()
        if !missingForGoals.isEmpty {
            warnings.append("no exchange rate for \(missingForGoals.map(\.code).joined(separator: ", ")): the goals those assets fund show no funded amount; run `walletwatch rates --refresh`")
        }
        return PortfolioReport(now: now, currency: display, assets: lines, total: total, goals: goals, warnings: warnings,
                               data: data, pricer: pricer)
    }

    /// The sum of figures, or nil when one is unknown.
    static func sum(_ values: [Int64?]) -> Int64? {
        values.reduce(Int64(0) as Int64?) { total, value in total.flatMap { total in value.map { total + $0 } } }
    }
}
