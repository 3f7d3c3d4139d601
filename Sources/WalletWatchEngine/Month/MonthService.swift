import Foundation
import WalletWatchCore
import WalletWatchStore

/// The month (SPEC.md sections 10 and 11): its plan, its cycle (start, complete, undo) and its
/// figures, computed by the one progress calculator for every view.
public struct MonthService: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let preferences: Preferences
    let rates: RateBook
    let goals: GoalBook
    let ingestor: Ingestor
    /// The executing month's last computed status, shared by every copy of this service.
    public let progressCache = ProgressCache()

    init(database: AppDatabase, config: AppConfig, clock: WallClock, preferences: Preferences, rates: RateBook, goals: GoalBook,
         ingestor: Ingestor) {
        self.database = database
        self.config = config
        self.clock = clock
        self.preferences = preferences
        self.rates = rates
        self.goals = goals
        self.ingestor = ingestor
    }

    /// The month `month status` shows by default: the executing one, else the current one.
    public func defaultMonth() throws -> MonthLabel {
        try database.executingRecord()?.month ?? clock.now.monthLabel
    }

    /// The figures of a month: live for the executing month (contributions since its start at
    /// current rates), frozen for a closed one, the plan alone for a draft one.
    public func status(month requested: MonthLabel? = nil, currency: Currency? = nil, refreshRates: RateRefresh = .ifNeeded) async throws -> MonthStatus {
        let month = try requested ?? defaultMonth()
        let display = try currency ?? preferences.displayCurrency()
        let record = try database.executionRecord(for: month)
        switch record?.state {
        case .closed?:
            guard let record, let data = try database.completedExecution(recordID: record.id) else { throw StoreError.corrupt("closed month \(month) without its figures") }
            return frozenStatus(record: record, data: data, display: display)
        case .executing?:
            return try await liveStatus(record: record!, display: display, refreshRates: refreshRates)
        case .draft?, nil:
            return try await draftStatus(month: month, display: display, refreshRates: refreshRates)
        }
    }

    private func draftStatus(month: MonthLabel, display: Currency, refreshRates: RateRefresh) async throws -> MonthStatus {
        let plan = try await self.plan(for: month, refreshRates: refreshRates)
        let pairs = Set(plan.lines.map { CurrencyPair(base: $0.goal.currency, quote: display) })
        let rates = await self.rates.current(for: pairs, refresh: refreshRates)
        var trail = ConversionTrail(table: rates.table)
        let goals = plan.lines.map { line in
            let figures = GoalMonthFigures(planned: line.planned, contributed: 0)
            return MonthStatus.GoalLine(goalID: line.goal.id!, name: line.goal.name, currency: line.goal.currency, figures: figures,
                                        remainingDisplay: trail.convert(figures.remaining, from: line.goal.currency, to: display), parts: [])
        }
        return summarize(month: month, state: .draft, startedAt: nil, completedAt: nil, display: display, goals: goals, trail: &trail,
                         warnings: plan.warnings + rates.warnings)
    }

    private func liveStatus(record: ExecutionRecord, display: Currency, refreshRates: RateRefresh) async throws -> MonthStatus {
        guard let start = record.startedAt, let snapshot = try database.snapshot(recordID: record.id) else {
            throw StoreError.corrupt("executing month \(record.month) without its start snapshot")
        }
        let now = clock.now
        let assetCurrencies = Set(try database.assets().map(\.currency))
        let pairs = Set(snapshot.goals.flatMap { goal in
            [CurrencyPair(base: goal.currency, quote: display)] + assetCurrencies.map { CurrencyPair(base: $0, quote: goal.currency) }
        })
        let rates = await self.rates.current(for: pairs, refresh: refreshRates)
        let counter = try database.changeCounter()
        if let cached = progressCache.lookup(recordID: record.id, counter: counter, displayCurrency: display, rates: rates.table) {
            return cached
        }
        let data = try database.progressData(start: start, now: now)
        let tracked = Set(snapshot.goals.map(\.goalID))
        var parts: [Int64: [MonthStatus.AssetPart]] = [:]
        var trail = ConversionTrail(table: rates.table)
        let goalCurrency = Dictionary(uniqueKeysWithValues: snapshot.goals.map { ($0.goalID, $0.currency) })
        for asset in data {
            let input = ProgressCalculator.AssetInput(
                assetID: asset.asset.id!, currency: asset.asset.currency, balanceNow: asset.balanceNow, movements: asset.movements,
                changes: asset.changes, baseline: asset.baseline, currentTargets: asset.currentTargets)
            for (goalID, contribution) in ProgressCalculator.contributions(of: input, trackedGoals: tracked) {
                let converted = trail.convert(contribution.total, from: asset.asset.currency, to: goalCurrency[goalID]!)
                parts[goalID, default: []].append(MonthStatus.AssetPart(
                    assetID: asset.asset.id!, assetName: asset.asset.name, assetCurrency: asset.asset.currency,
                    contribution: contribution, converted: converted))
            }
        }
        let goals = snapshot.goals.map { planned in
            // Summed per asset currency and each sum converted once, as `goal show` adds up a
            // goal's funded amount: two BTC assets give one rounding, not two.
            let goalParts = parts[planned.goalID] ?? []
            let contributed = trail.total(goalParts.map { ($0.contribution.total, $0.assetCurrency) }, in: planned.currency)
                ?? goalParts.reduce(0) { $0 + ($1.converted ?? 0) }
            let figures = GoalMonthFigures(planned: planned.planned, contributed: contributed)
            return MonthStatus.GoalLine(goalID: planned.goalID, name: planned.name, currency: planned.currency, figures: figures,
                                        remainingDisplay: trail.convert(figures.remaining, from: planned.currency, to: display),
                                        parts: (parts[planned.goalID] ?? []).sorted { $0.assetName < $1.assetName })
        }
        let status = summarize(month: record.month, state: .executing, startedAt: start, completedAt: nil, display: display, goals: goals,
                               trail: &trail, warnings: rates.warnings)
        progressCache.store(recordID: record.id, counter: counter, displayCurrency: display, rates: rates.table, status: status)
        return status
    }

    private func frozenStatus(record: ExecutionRecord, data: CompletedExecutionData, display: Currency) -> MonthStatus {
        let frozen = data.rates.compactMap { rate in
            Decimal(string: rate.rate).map { ExchangeRate(pair: CurrencyPair(base: rate.base, quote: rate.quote), rate: $0, fetchedAt: rate.fetchedAt, provider: rate.provider) }
        }
        var trail = ConversionTrail(table: RateTable(rates: frozen, now: data.completedAt, maxAgeSeconds: Int64.max / 2))
        let partsByGoal = Dictionary(grouping: data.contributions, by: \.goalID)
        let goals = data.goals.map { goal in
            let figures = GoalMonthFigures(planned: goal.planned, contributed: goal.contributed)
            let parts = (partsByGoal[goal.goalID] ?? []).map { part in
                MonthStatus.AssetPart(
                    assetID: part.assetID, assetName: part.assetName, assetCurrency: part.assetCurrency,
                    contribution: ProgressCalculator.Contribution(fundedAtStart: 0, fundedAtEnd: part.amount,
                                                                  fromTransactions: part.fromTransactions, fromReallocations: part.fromReallocations),
                    converted: part.converted)
            }
            return MonthStatus.GoalLine(goalID: goal.goalID, name: goal.name, currency: goal.currency, figures: figures,
                                        remainingDisplay: trail.convert(figures.remaining, from: goal.currency, to: display), parts: parts)
        }
        return summarize(month: record.month, state: .closed, startedAt: data.startedAt, completedAt: data.completedAt, display: display,
                         goals: goals, trail: &trail, warnings: [])
    }

    private func summarize(month: MonthLabel, state: ExecutionState, startedAt: Instant?, completedAt: Instant?, display: Currency,
                           goals: [MonthStatus.GoalLine], trail: inout ConversionTrail, warnings: [String]) -> MonthStatus {
        let planned = trail.total(goals.map { ($0.figures.planned, $0.currency) }, in: display)
        let contributed = trail.total(goals.map { ($0.figures.contributed, $0.currency) }, in: display)
        let remaining = trail.total(goals.map { ($0.figures.remaining, $0.currency) }, in: display)
        var warnings = warnings
        if !trail.missing.isEmpty {
            warnings.append("no exchange rate for \(trail.missing.map(\.description).sorted().joined(separator: ", ")): those amounts are left out of converted figures")
        }
        return MonthStatus(month: month, state: state, startedAt: startedAt, completedAt: completedAt, displayCurrency: display,
                           goals: goals, plannedDisplay: planned, contributedDisplay: contributed, remainingDisplay: remaining,
                           ratesAsOf: trail.asOf, ratesStale: trail.stale, missingRates: trail.missing.sorted(), warnings: warnings)
    }
}
