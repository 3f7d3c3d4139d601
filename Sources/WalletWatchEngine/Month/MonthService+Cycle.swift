import WalletWatchCore
import WalletWatchStore

/// What `month start` did.
public struct MonthStartReport: Sendable {
    public let record: ExecutionRecord
    /// The ingest pass run first (empty without sources).
    public let ingest: [IngestReport]
    public let warnings: [String]
}

extension MonthService {
    /// Starts the current month: first an ingest pass, so that what arrived before the start is
    /// in before the baseline (when a source does not answer, the month starts anyway and says
    /// so); then the plans and the targets at the start are frozen. Undo stays possible for
    /// `undo_grace_hours`.
    public func start() async throws -> MonthStartReport {
        let month = clock.now.monthLabel
        if let executing = try database.executingRecord() {
            throw Refusal(executing.month == month
                ? "\(month) is already executing since \(executing.startedAt?.iso8601 ?? "?")"
                : "\(executing.month) is still executing; complete it (`walletwatch month complete`) before starting \(month)")
        }
        var warnings: [String] = []
        let reports = config.sources.isEmpty ? [] : try await ingestor.ingest()
        for report in reports where !report.ok {
            warnings.append("started without the latest data of source '\(report.source)' (\(report.error ?? "failed")); transactions it reports later but dated before the start still count as before it")
        }
        let plan = try await self.plan(for: month)
        // A required amount computed without a rate would be frozen too high for the month.
        let unknown = plan.lines.filter { !$0.missingRates.isEmpty && !$0.plan.skipped && $0.plan.custom == nil }
        if let first = unknown.first {
            throw RateUnavailable("no exchange rate for \(first.missingRates.map(\.base.code).joined(separator: ", ")) to \(first.goal.currency.code): what goal '\(first.goal.name)' still needs cannot be computed, and starting would freeze it; refresh rates (`walletwatch rates --refresh`) or set its amount (`walletwatch month plan set \(first.goal.name) AMOUNT`)")
        }
        let display = try preferences.displayCurrency()
        let rates = await self.rates.current(for: Set(plan.lines.map { CurrencyPair(base: $0.goal.currency, quote: display) }))
        warnings += plan.warnings + rates.warnings
        var trail = ConversionTrail(table: rates.table)
        let total = trail.total(plan.lines.map { ($0.planned, $0.goal.currency) }, in: display)
        let start = clock.now
        let goals = plan.lines.map { line in
            ExecutionSnapshotData.PlannedGoal(goalID: line.goal.id!, name: line.goal.name, currency: line.goal.currency,
                                              required: line.plan.required, custom: line.plan.custom, skipped: line.plan.skipped,
                                              planned: line.planned)
        }
        let record = try database.startExecution(month: month, startedAt: start, canUndoUntil: start.adding(seconds: try preferences.undoGrace())) { targets in
            ExecutionSnapshotData(capturedAt: start, displayCurrency: display, goals: goals, targets: targets, totalPlannedDisplay: total)
        }
        return MonthStartReport(record: record, ingest: reports, warnings: warnings)
    }

    /// Completes the executing month: its figures, the contributions of each asset and the
    /// rates used are frozen, so later rate changes do not move them.
    public func complete() async throws -> (ExecutionRecord, MonthStatus) {
        guard let record = try database.executingRecord() else {
            throw Refusal("no month is executing; `walletwatch month start` starts the current one")
        }
        // A clock behind the start (it ran ahead when the month started, or WALLETWATCH_NOW
        // names an earlier instant) would freeze a month completed before it began.
        if let start = record.startedAt, clock.now < start {
            throw Refusal("\(record.month) started at \(start.iso8601), after now (\(clock.now.iso8601)); it cannot be completed before it began: check the system clock (or WALLETWATCH_NOW), or `walletwatch month undo-start` while possible")
        }
        let status = try await self.status(month: record.month)
        // A contribution that could not be converted would be frozen as nothing.
        if let goal = status.goals.first(where: { $0.parts.contains { $0.converted == nil } }),
           let part = goal.parts.first(where: { $0.converted == nil }) {
            throw RateUnavailable("no exchange rate \(part.assetCurrency.code)/\(goal.currency.code): what '\(part.assetName)' gave goal '\(goal.name)' this month cannot be converted, and completing would freeze it as nothing; refresh rates (`walletwatch rates --refresh`) and complete again")
        }
        let now = clock.now
        let rates = try database.latestRates().map {
            CompletedExecutionData.FrozenRate(base: $0.pair.base, quote: $0.pair.quote, rate: "\($0.rate)", fetchedAt: $0.fetchedAt, provider: $0.provider)
        }
        let data = CompletedExecutionData(
            month: record.month, startedAt: record.startedAt ?? now, completedAt: now, displayCurrency: status.displayCurrency,
            goals: status.goals.map {
                .init(goalID: $0.goalID, name: $0.name, currency: $0.currency, planned: $0.figures.planned,
                      contributed: $0.figures.contributed, remaining: $0.figures.remaining)
            },
            contributions: status.goals.flatMap { goal in
                goal.parts.map {
                    .init(goalID: goal.goalID, assetID: $0.assetID, assetName: $0.assetName, assetCurrency: $0.assetCurrency,
                          amount: $0.contribution.total, fromTransactions: $0.contribution.fromTransactions,
                          fromReallocations: $0.contribution.fromReallocations, converted: $0.converted)
                }
            },
            rates: rates)
        let closed = try database.completeExecution(month: record.month, data: data, canUndoUntil: now.adding(seconds: try preferences.undoGrace()))
        return (closed, try await self.status(month: record.month))
    }

    /// Returns the executing month to draft, within the grace period after its start.
    public func undoStart() throws -> ExecutionRecord {
        let month = try database.executingRecord()?.month ?? clock.now.monthLabel
        return try database.undoStart(month: month, now: clock.now)
    }

    /// Reopens the most recently closed month (or `month`), within the grace period after its completion.
    public func undoComplete(_ month: MonthLabel? = nil) throws -> ExecutionRecord {
        guard let target = try month ?? database.closedMonths().first?.record.month else {
            throw Refusal("no month is closed; there is nothing to undo")
        }
        let started = try database.executionRecord(for: target)?.startedAt ?? clock.now
        return try database.undoComplete(month: target, now: clock.now, startGraceUntil: started.adding(seconds: try preferences.undoGrace()))
    }
}

extension MonthService {
    /// The closed months with their frozen figures, newest first.
    public func history() throws -> [(record: ExecutionRecord, figures: CompletedExecutionData)] {
        try database.closedMonths()
    }
}
