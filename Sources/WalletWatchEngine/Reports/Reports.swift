import Foundation
import WalletWatchCore
import WalletWatchStore

/// The portfolio figures of SPEC.md section 13 and the exports (`report`, `export csv`).
public struct Reports: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let preferences: Preferences
    let rates: RateBook
    let goals: GoalBook
    /// The live views' last portfolio report, shared by every copy of this value.
    public let portfolioCache = PortfolioCache()

    init(database: AppDatabase, clock: WallClock, preferences: Preferences, rates: RateBook, goals: GoalBook) {
        self.database = database
        self.clock = clock
        self.preferences = preferences
        self.rates = rates
        self.goals = goals
    }

    /// The portfolio report in `currency` (default: the display currency), for one asset or all.
    /// Rates are refreshed first when needed (`refresh`); figures use the rate history: the
    /// price at a date is the latest rate at or before it, and a date without one makes the
    /// figures that need it unknown (nil, with a warning), never zero.
    public func portfolio(assetName: String? = nil, currency: Currency? = nil, refresh: RateRefresh = .ifNeeded) async throws -> PortfolioReport {
        let display = try currency ?? preferences.displayCurrency()
        let selectedID = try assetName.map { try database.asset(named: $0).id! }
        let overviews = try database.goalOverviews().filter { $0.goal.status != .cancelled }
        let assetCurrencies = Set(try database.assets().map(\.currency))
        var needed = Set(assetCurrencies.map { CurrencyPair(base: $0, quote: display) })
        for overview in overviews {
            needed.insert(CurrencyPair(base: overview.goal.currency, quote: display))
            for share in overview.shares { needed.insert(CurrencyPair(base: share.asset.currency, quote: overview.goal.currency)) }
        }
        let rates = await self.rates.current(for: needed, refresh: refresh)
        let now = clock.now
        let currencies = assetCurrencies.union(overviews.map(\.goal.currency)).union([display])
        let data = try database.portfolioData(rateCurrencies: currencies)
        let pricer = Pricer(history: RateHistory(data.rates, preferred: [display]), display: display)
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
            let progress = self.goals.progress(of: overview, converter: rates.table)
            return PortfolioReport.GoalLine(goal: overview.goal, progress: progress,
                                            distanceDisplay: progress.distance.flatMap { trail.convert($0, from: overview.goal.currency, to: display) })
        }
        let missingForGoals = Set(goals.flatMap(\.progress.missingRates)).sorted()
        if !missingForGoals.isEmpty {
            warnings.append("no exchange rate for \(missingForGoals.map(\.description).joined(separator: ", ")): the goals those assets fund show no funded amount; run `walletwatch rates --refresh`, or for a unit without a CoinGecko id `walletwatch rates set`")
        }
        return PortfolioReport(now: now, currency: display, assets: lines, total: total, goals: goals, warnings: warnings,
                               data: data, pricer: pricer)
    }

    /// The sum of figures, or nil when one is unknown.
    static func sum(_ values: [Int128?]) -> Int128? {
        values.reduce(Int128(0) as Int128?) { total, value in total.flatMap { total in value.map { total + $0 } } }
    }

    /// The portfolio report for the live views: stored rates only (the page must not wait for
    /// a provider), reused while nothing it depends on changed.
    public func cachedPortfolio() async throws -> PortfolioReport {
        let key = PortfolioCache.Key(counter: try database.changeCounter(), rateVersion: try database.rateHistoryVersion(),
                                     currency: try preferences.displayCurrency(), day: clock.now.day)
        if let cached = portfolioCache.lookup(key) { return cached }
        let report = try await portfolio(currency: key.currency, refresh: .never)
        return portfolioCache.store(key) { report.withRevision($0) }
    }
}
