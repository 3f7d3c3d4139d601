import Foundation
import GRDB
import WalletWatchCore

/// What the progress calculator reads about one asset, taken in one consistent snapshot.
public struct AssetProgressData: Hashable, Sendable {
    public let asset: Asset
    public let balanceNow: Int128
    public let movements: [ProgressCalculator.Movement]
    public let changes: [ProgressCalculator.TargetChange]
    /// Targets just before the start by goal: the history rows dated before it, whenever written.
    public let baseline: [Int64: Int128]
    public let currentTargets: [Int64: Int128]
}

extension AppDatabase {
    // MARK: - Records

    /// The record of `month`, if any.
    public func executionRecord(for month: MonthLabel) throws -> ExecutionRecord? {
        try read { db in try Self.record(db, month: month) }
    }

    /// The month being executed, if any.
    public func executingRecord() throws -> ExecutionRecord? {
        try read { db in try Self.executing(db) }
    }

    /// The plans and targets frozen when the month started.
    public func snapshot(recordID: Int64) throws -> ExecutionSnapshotData? {
        try read { db in try Self.snapshot(db, recordID: recordID) }
    }

    /// The frozen figures of a closed month.
    public func completedExecution(recordID: Int64) throws -> CompletedExecutionData? {
        try read { db in try Self.completed(db, recordID: recordID) }
    }

    /// Every closed month with its frozen figures, newest first.
    public func closedMonths() throws -> [(record: ExecutionRecord, figures: CompletedExecutionData)] {
        try read { db in
            try Self.records(db).filter { $0.state == .closed }.sorted { $0.month > $1.month }.compactMap { record in
                try Self.completed(db, recordID: record.id).map { (record: record, figures: $0) }
            }
        }
    }

    // MARK: - Plans

    /// The custom amounts and skips set for a month.
    public func planOverrides(for month: MonthLabel) throws -> [Int64: PlanOverride] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT * FROM monthly_plans WHERE month_label = ?", arguments: [month]).map {
                let override = PlanOverride(goalID: try $0.decode(forColumn: "goal_id"), custom: try $0.optionalAmount("custom_amount"),
                                            skipped: try $0.decode(forColumn: "skipped"))
                return (override.goalID, override)
            })
        }
    }

    /// Sets a goal's custom amount or skip for a month; `custom: nil, skipped: false` resets it.
    /// Refused once the month has started: its plan is frozen.
    public func setPlan(month: MonthLabel, goalName: String, custom: Int128?, skipped: Bool) throws -> Goal {
        try write { db in
            if let record = try Self.record(db, month: month), record.state != .draft {
                throw Refusal("the plan of \(month) is frozen: the month is \(record.state.rawValue); `walletwatch month undo-start` reopens it while possible")
            }
            let goal = try Self.findGoal(db, named: goalName)
            guard goal.status == .active else {
                throw Refusal("goal '\(goal.name)' is \(goal.status.rawValue); only active goals are planned")
            }
            if custom == nil && !skipped {
                try db.execute(sql: "DELETE FROM monthly_plans WHERE month_label = ? AND goal_id = ?", arguments: [month, goal.id!])
            } else {
                try db.execute(sql: """
                    INSERT INTO monthly_plans (month_label, goal_id, custom_amount, skipped) VALUES (?, ?, ?, ?)
                    ON CONFLICT(month_label, goal_id) DO UPDATE SET custom_amount = excluded.custom_amount, skipped = excluded.skipped
                    """, arguments: [month, goal.id!, custom.map(StoredAmount.init), skipped])
            }
            try Self.bumpChangeCounter(db)
            return goal
        }
    }

    // MARK: - The cycle

    /// Starts tracking `month` at `startedAt`: freezes the plans, and records the targets as they
    /// stood at the start. That record is what the user saw; the calculator reads the targets at
    /// the start from the history instead (``progressData(start:now:)``), where a row dated before
    /// the start but written after it (Rule 1 for a backdated deposit) is part of the baseline.
    public func startExecution(month: MonthLabel, startedAt: Instant, canUndoUntil: Instant,
                               snapshot makeSnapshot: @Sendable ([ExecutionSnapshotData.Target]) throws -> ExecutionSnapshotData) throws -> ExecutionRecord {
        try write { db in
            if let executing = try Self.executing(db) {
                throw Refusal(executing.month == month
                    ? "\(month) is already executing since \(executing.startedAt?.iso8601 ?? "?")"
                    : "\(executing.month) is still executing; complete it (`walletwatch month complete`) before starting \(month)")
            }
            if let existing = try Self.record(db, month: month), existing.state == .closed {
                throw Refusal("\(month) is already closed; `walletwatch month undo-complete` reopens it while possible")
            }
            let snapshot = try makeSnapshot(try Self.targets(db, at: startedAt))
            let goalIDs = snapshot.goals.map(\.goalID)
            try db.execute(sql: """
                INSERT INTO execution_records (month_label, status, started_at, completed_at, can_undo_until, goal_ids)
                VALUES (?, 'executing', ?, NULL, ?, ?)
                ON CONFLICT(month_label) DO UPDATE SET status = 'executing', started_at = excluded.started_at,
                    completed_at = NULL, can_undo_until = excluded.can_undo_until, goal_ids = excluded.goal_ids
                """, arguments: [month, startedAt, canUndoUntil, try Self.json(goalIDs)])
            let record = try Self.record(db, month: month)!
            try db.execute(sql: """
                INSERT INTO execution_snapshots (record_id, captured_at, display_currency, goals, targets, total_planned_display)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(record_id) DO UPDATE SET captured_at = excluded.captured_at, display_currency = excluded.display_currency,
                    goals = excluded.goals, targets = excluded.targets, total_planned_display = excluded.total_planned_display
                """, arguments: [record.id, snapshot.capturedAt, snapshot.displayCurrency, try Self.json(snapshot.goals),
                                 try Self.json(snapshot.targets), snapshot.totalPlannedDisplay.map(StoredAmount.init)])
            for goal in snapshot.goals {
                try db.execute(sql: """
                    INSERT INTO monthly_plans (month_label, goal_id, required, custom_amount, skipped) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(month_label, goal_id) DO UPDATE SET required = excluded.required
                    """, arguments: [month, goal.goalID, StoredAmount(goal.required), goal.custom.map(StoredAmount.init), goal.skipped])
            }
            try Self.bumpChangeCounter(db)
            return record
        }
    }

    /// Returns an executing month to draft, within its grace period.
    public func undoStart(month: MonthLabel, now: Instant) throws -> ExecutionRecord {
        try write { db in
            let record = try Self.requireRecord(db, month: month, state: .executing, action: "undo-start")
            try Self.requireWithinGrace(record, now: now, action: "undo-start")
            try db.execute(sql: "DELETE FROM execution_snapshots WHERE record_id = ?", arguments: [record.id])
            try db.execute(sql: """
                UPDATE execution_records SET status = 'draft', started_at = NULL, can_undo_until = NULL, goal_ids = '[]' WHERE id = ?
                """, arguments: [record.id])
            try Self.bumpChangeCounter(db)
            return try Self.record(db, month: month)!
        }
    }

    /// Closes an executing month, freezing its figures, and announces the goals it closed
    /// (`month.goal_closed`).
    public func completeExecution(month: MonthLabel, data: CompletedExecutionData, canUndoUntil: Instant) throws -> ExecutionRecord {
        try write { db in
            let record = try Self.requireRecord(db, month: month, state: .executing, action: "complete")
            try db.execute(sql: """
                INSERT INTO completed_executions (record_id, month_label, completed_at, goals, contributions, rates) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [record.id, month, data.completedAt, try Self.json(data.goals), try Self.json(data.contributions),
                                 try Self.json(FrozenRates(displayCurrency: data.displayCurrency, rates: data.rates))])
            try db.execute(sql: "UPDATE execution_records SET status = 'closed', completed_at = ?, can_undo_until = ? WHERE id = ?",
                           arguments: [data.completedAt, canUndoUntil, record.id])
            try CompletedMonthDigest.store(db, recordID: record.id)
            // Each goal whose month closed (its plan met: nothing remaining) is announced with the
            // month's completion, in its transaction.
            for goal in data.goals where goal.planned > 0 && goal.remaining == 0 {
                try Self.enqueue(NotificationEvent(.monthGoalClosed, at: data.completedAt, data: .object([
                    "month": .string(month.description), "goal": .string(goal.name), "planned": .int(goal.planned),
                    "contributed": .int(goal.contributed), "currency": .string(goal.currency.code),
                ])), in: db)
            }
            try Self.bumpChangeCounter(db)
            return try Self.record(db, month: month)!
        }
    }

    /// Reopens a closed month (executing again), within its grace period. The start's own
    /// undo window is measured from the start again (`startGraceUntil`).
    public func undoComplete(month: MonthLabel, now: Instant, startGraceUntil: Instant) throws -> ExecutionRecord {
        try write { db in
            let record = try Self.requireRecord(db, month: month, state: .closed, action: "undo-complete")
            try Self.requireWithinGrace(record, now: now, action: "undo-complete")
            if let executing = try Self.executing(db) {
                throw Refusal("\(executing.month) is executing; only one month can be executing, so \(month) cannot be reopened")
            }
            try db.execute(sql: "DELETE FROM completed_executions WHERE record_id = ?", arguments: [record.id])
            try db.execute(sql: "UPDATE execution_records SET status = 'executing', completed_at = NULL, can_undo_until = ? WHERE id = ?",
                           arguments: [startGraceUntil, record.id])
            try Self.bumpChangeCounter(db)
            return try Self.record(db, month: month)!
        }
    }

    // MARK: - Calculator inputs

    /// Everything the calculator needs for an execution that started at `start`, observed at
    /// `now`, read in one snapshot. Transactions are read per asset through the (asset, date)
    /// index and history rows through the timestamp index, so the cost follows the month, not
    /// the length of the history.
    ///
    /// The targets at the start come from the history as it is now, not from the snapshot taken
    /// at `month start`: what is dated before the start belongs to the baseline, whenever it was
    /// written. A Rule 1 row (or its adjustment) goes with its transaction: before the start when
    /// the transaction is dated before it, even when the pair's later rows pushed the row's
    /// timestamp past the start; walked with the month when the transaction is dated at or after
    /// the start (a deposit dated exactly S is the month's, and so is the target raise it causes).
    /// Other rows are baseline when dated at or before the start. So the baseline handed to the
    /// calculator is the history strictly before S, and every row from S on comes with its
    /// classification (``ProgressCalculator/TargetChange/countsAtStart``).
    public func progressData(start: Instant, now: Instant) throws -> [AssetProgressData] {
        try read { db in
            let balances = try Self.balances(db)
            let movementsStatement = try db.cachedStatement(sql: """
                SELECT amount, date FROM transactions WHERE asset_id = ? AND date >= ? AND date <= ? AND status = 'confirmed'
                ORDER BY date
                """)
            let changes = try Dictionary(grouping: Row.fetchAll(db, sql: """
                SELECT h.asset_id, h.goal_id, h.amount, h.timestamp,
                    CASE WHEN h.reason IN ('rule1', 'rule1-adjust') AND t.date IS NOT NULL THEN t.date < ?1
                         ELSE h.timestamp <= ?1 END AS counts_at_start
                FROM allocation_history h
                LEFT JOIN transactions t ON t.asset_id = h.asset_id AND t.txid = h.txid
                WHERE h.timestamp >= ?1 AND h.timestamp <= ?2
                ORDER BY h.timestamp, h.created_at, h.id
                """, arguments: [start, now]), by: { try! $0.decode(Int64.self, forColumn: "asset_id") })
            // Instants have millisecond resolution: "at or before S - 1 ms" is "before S".
            let baseline = Dictionary(grouping: try Self.targets(db, at: start.adding(milliseconds: -1)), by: \.assetID)
            let current = try Dictionary(grouping: AllocationRow.fetchAll(db), by: \.assetID)
            return try Asset.order(Column("id")).fetchAll(db).map { asset in
                let id = asset.id!
                let movements = try Row.fetchAll(movementsStatement, arguments: [id, start, now]).map {
                    ProgressCalculator.Movement(amount: try $0.amount("amount"), date: try $0.decode(forColumn: "date"))
                }
                return AssetProgressData(
                    asset: asset, balanceNow: balances[id]?.counted ?? 0, movements: movements,
                    changes: try (changes[id] ?? []).map {
                        .init(goalID: try $0.decode(forColumn: "goal_id"), amount: try $0.amount("amount"),
                              timestamp: try $0.decode(forColumn: "timestamp"), countsAtStart: try $0.decode(forColumn: "counts_at_start"))
                    },
                    baseline: Dictionary(uniqueKeysWithValues: (baseline[id] ?? []).map { ($0.goalID, $0.amount) }),
                    currentTargets: Dictionary(uniqueKeysWithValues: (current[id] ?? []).map { ($0.goalID, $0.amount) }))
            }
        }
    }

    /// The targets of every (asset, goal) pair with history at or before `instant`: for each
    /// pair, one lookup of its latest row through the (asset, goal, timestamp) index, so that a
    /// long history costs a scan of the pairs, not a search per row.
    static func targets(_ db: Database, at instant: Instant) throws -> [ExecutionSnapshotData.Target] {
        try Row.fetchAll(db, sql: "SELECT DISTINCT asset_id, goal_id FROM allocation_history ORDER BY asset_id, goal_id").compactMap { pair in
            let assetID: Int64 = try pair.decode(forColumn: "asset_id")
            let goalID: Int64 = try pair.decode(forColumn: "goal_id")
            return try latestTarget(db, assetID: assetID, goalID: goalID, at: instant).map {
                .init(assetID: assetID, goalID: goalID, amount: $0)
            }
        }
    }

    // MARK: - Helpers

    /// Every month record, each checked. Every month operation reads them all (one row a
    /// month), so that a record walletwatch cannot place stops the cycle before anything else:
    /// a label that is no month could be any month, including the one being acted on, and
    /// "one record per month, one executing" can no longer be told.
    static func records(_ db: Database) throws -> [ExecutionRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM execution_records ORDER BY id").map(record)
    }

    static func record(_ db: Database, month: MonthLabel) throws -> ExecutionRecord? {
        try records(db).first { $0.month == month }
    }

    /// The executing record; the database holds at most one (a unique partial index).
    static func executing(_ db: Database) throws -> ExecutionRecord? {
        try records(db).first { $0.state == .executing }
    }

    /// A record as stored, or a one-line error naming the row when its label is no
    /// `yyyy-MM` month or its status none of walletwatch's (written by something else).
    static func record(_ row: Row) throws -> ExecutionRecord {
        let id: Int64 = try row.decode(forColumn: "id")
        let label: DatabaseValue = row["month_label"]
        guard let month = MonthLabel.fromDatabaseValue(label) else {
            throw StoreError.corrupt("month record \(id) (table execution_records) is labelled \(String.fromDatabaseValue(label).map { "'\($0)'" } ?? label.description), "
                + "which is not a yyyy-MM month; walletwatch cannot tell which month it tracks, so the month commands stop until that row is corrected or deleted (or a backup is restored)")
        }
        let status: DatabaseValue = row["status"]
        guard let state = String.fromDatabaseValue(status).flatMap(ExecutionState.init(rawValue:)) else {
            throw StoreError.corrupt("month record \(id) (\(month)) has the status \(status.description), none of draft, executing, closed")
        }
        let goalIDs: String = try row.decode(forColumn: "goal_ids")
        return ExecutionRecord(
            id: id, month: month, state: state,
            startedAt: try row.decode(forColumn: "started_at"), completedAt: try row.decode(forColumn: "completed_at"),
            canUndoUntil: try row.decode(forColumn: "can_undo_until"),
            goalIDs: (try? JSONDecoder().decode([Int64].self, from: Data(goalIDs.utf8))) ?? [])
    }

    static func requireRecord(_ db: Database, month: MonthLabel, state: ExecutionState, action: String) throws -> ExecutionRecord {
        let record = try record(db, month: month)
        guard let record, record.state == state else {
            throw Refusal("cannot \(action) \(month): the month is \(record?.state.rawValue ?? "draft")\(state == .executing ? " (not executing)" : " (not closed)")")
        }
        return record
    }

    static func requireWithinGrace(_ record: ExecutionRecord, now: Instant, action: String) throws {
        guard let until = record.canUndoUntil, now <= until else {
            throw Refusal("\(action) of \(record.month) was possible until \(record.canUndoUntil?.iso8601 ?? "its start")")
        }
    }

    static func snapshot(_ db: Database, recordID: Int64) throws -> ExecutionSnapshotData? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM execution_snapshots WHERE record_id = ?", arguments: [recordID]) else {
            return nil
        }
        return ExecutionSnapshotData(
            capturedAt: try row.decode(forColumn: "captured_at"), displayCurrency: try row.decode(forColumn: "display_currency"),
            goals: try decodeJSON(row.decode(forColumn: "goals")), targets: try decodeJSON(row.decode(forColumn: "targets")),
            totalPlannedDisplay: try row.optionalAmount("total_planned_display"))
    }

    static func completed(_ db: Database, recordID: Int64) throws -> CompletedExecutionData? {
        let sql = "SELECT c.*, r.started_at FROM completed_executions c JOIN execution_records r ON r.id = c.record_id WHERE c.record_id = ?"
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [recordID]) else { return nil }
        let rates: FrozenRates = try decodeJSON(row.decode(forColumn: "rates"))
        return CompletedExecutionData(
            month: try row.decode(forColumn: "month_label"), startedAt: try row.decode(forColumn: "started_at"),
            completedAt: try row.decode(forColumn: "completed_at"), displayCurrency: rates.displayCurrency,
            goals: try decodeJSON(row.decode(forColumn: "goals")), contributions: try decodeJSON(row.decode(forColumn: "contributions")),
            rates: rates.rates)
    }

    /// The `rates` column of a completed execution: the rates used and the display currency.
    struct FrozenRates: Codable {
        let displayCurrency: Currency
        let rates: [CompletedExecutionData.FrozenRate]
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decodeJSON<T: Decodable>(_ text: String) throws -> T {
        let decoder = JSONDecoder()
        do { return try decoder.decode(T.self, from: Data(text.utf8)) } catch {
            throw StoreError.corrupt("a frozen month snapshot (\(error))")
        }
    }
}
