import Foundation
import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Brings every saving plan up to `now` in one write transaction (SPEC.md section 19).
    ///
    /// Each due date up to today (UTC) that a plan of an active goal has not handled yet gets
    /// its occurrence, written with what it causes: an automatic plan's deposit, recorded
    /// through the same path as `tx add` (ledger rules and Rule 1) and dated the start of the
    /// due date, in the asset's currency (``PlanBooking``: a plan in another currency books its
    /// amount at the price of the date; a date without any rate waits, and the later ones after
    /// it); a reminder's `plan.due` event, enqueued only while its 7 days are not over (a
    /// reminder for a date long past, found after downtime, would only be noise). The
    /// (plan, due) key makes each date happen once, however often and from however many
    /// processes this runs. Then every pending reminder is decided by ``ReminderMatcher``.
    public func catchUpSavingPlans(now: Instant) throws -> SavingPlanActivity {
        try write { db in try Self.catchUpSavingPlans(db, now: now) }
    }

    static func catchUpSavingPlans(_ db: Database, now: Instant) throws -> SavingPlanActivity {
        var activity = SavingPlanActivity()
        let rows = try Row.fetchAll(db, sql: """
            SELECT p.*, g.name AS goal_name, a.name AS asset_name, a.kind AS asset_kind, a.currency AS asset_currency,
                   (SELECT MAX(due) FROM saving_plan_occurrences WHERE plan_id = p.id) AS last_due
            FROM saving_plans p JOIN goals g ON g.id = p.goal_id JOIN asset_rows a ON a.id = p.asset_id
            WHERE g.status = 'active'
            ORDER BY p.name
            """)
        for row in rows {
            let plan = try SavingPlan(row: row)
            let dues = SavingSchedule.dues(start: plan.start, every: plan.every, after: try row.decode(forColumn: "last_due"), through: now.day)
            guard !dues.isEmpty else { continue }
            let goalName: String = try row.decode(forColumn: "goal_name")
            let assetName: String = try row.decode(forColumn: "asset_name")
            switch plan.method {
            case .automatic:
                let kind: AssetKind = try row.decode(forColumn: "asset_kind")
                let currency: Currency = try row.decode(forColumn: "asset_currency")
                // `saving-plan add` refused it; the asset's kind may have changed since
                // (possible while it had no transaction).
                guard kind == .manual else {
                    activity.warnings.append("saving plan '\(plan.name)' records \(plan.money) into '\(assetName)', which is now a \(kind.rawValue) asset; nothing recorded: delete the plan and add it again with --method reminder")
                    continue
                }
                dates: for due in dues {
                    // A plan in another currency (100 USD a month into ETH) books the amount at
                    // the price of its date, in the asset's smallest unit.
                    let booking = try PlanBooking.amount(plan.money, into: currency, on: due, db: db)
                    let amount: Int128
                    switch booking {
                    case .amount(let value):
                        amount = value
                    case .noRate(let pair):
                        // This date and the later ones wait for a rate: each is recorded once, in order.
                        activity.warnings.append("saving plan '\(plan.name)' due \(due) is not recorded yet: no \(pair) rate at that date to turn \(plan.money) into \(currency.code); `walletwatch rates backfill`, `rates set` or `rates import` adds one, and the next catch-up records it")
                        break dates
                    case .zero(let pair):
                        activity.warnings.append("saving plan '\(plan.name)' due \(due): \(plan.money) rounds to 0 \(currency.code) at the \(pair) rate of that date; nothing recorded, the date counts as missed")
                        try db.execute(sql: """
                            INSERT INTO saving_plan_occurrences (plan_id, due, status, created_at, settled_at) VALUES (?, ?, 'missed', ?, ?)
                            """, arguments: [plan.id, due, now, now])
                        activity.entries.append(.init(plan: plan.name, due: due, status: .missed, txids: [], notified: false))
                        continue
                    }
                    let transaction = try insertManualTransaction(
                        db, assetID: plan.assetID, currency: currency, amount: amount, date: due.startInstant,
                        note: "saving plan '\(plan.name)' due \(due)", now: now)
                    try db.execute(sql: """
                        INSERT INTO saving_plan_occurrences (plan_id, due, status, txid, created_at, settled_at)
                        VALUES (?, ?, 'recorded', ?, ?, ?)
                        """, arguments: [plan.id, due, transaction.txid, now, now])
                    activity.entries.append(.init(plan: plan.name, due: due, status: .recorded, txids: [transaction.txid], notified: false))
                }
            case .reminder:
                for due in dues {
                    var notified = false
                    if now < ReminderWindow(due: due).end {
                        notified = try enqueuePlanDue(db, plan: plan, goal: goalName, asset: assetName, due: due, now: now)
                    }
                    try db.execute(sql: """
                        INSERT INTO saving_plan_occurrences (plan_id, due, status, notified, created_at) VALUES (?, ?, 'pending', ?, ?)
                        """, arguments: [plan.id, due, notified, now])
                    activity.entries.append(.init(plan: plan.name, due: due, status: .pending, txids: [], notified: notified))
                }
            }
        }
        try resolveReminders(db, now: now, into: &activity)
        if !activity.entries.isEmpty { try bumpChangeCounter(db) }
        return activity
    }

    /// Decides the pending reminders from the deposits no plan has taken yet.
    private static func resolveReminders(_ db: Database, now: Instant, into activity: inout SavingPlanActivity) throws {
        let reminders = try Row.fetchAll(db, sql: """
            SELECT p.id, p.name, p.asset_id, p.amount, p.currency, o.due
            FROM saving_plan_occurrences o JOIN saving_plans p ON p.id = o.plan_id
            WHERE o.status = 'pending'
            """).map { row in
            ReminderMatcher.Reminder(planID: row["id"], planName: row["name"], assetID: row["asset_id"], due: try row.decode(forColumn: "due"),
                                     amount: try row.amount("amount"), currency: try row.decode(forColumn: "currency"))
        }
        guard let earliest = reminders.map(\.due).min() else { return }
        let assetIDs = Array(Set(reminders.map(\.assetID)))
        // Deposits already taken (by a reminder, or recorded by an automatic plan) are left out.
        let deposits = try Row.fetchAll(db, sql: """
            SELECT t.asset_id, t.txid, t.amount, t.status, t.date, a.currency
            FROM transactions t JOIN assets a ON a.id = t.asset_id
            WHERE t.asset_id IN (\(assetIDs.map { _ in "?" }.joined(separator: ","))) AND \(AmountSQL.isPositive("t.amount")) AND t.status != 'failed'
              AND t.date >= ?
              AND NOT EXISTS (SELECT 1 FROM saving_plan_claims c WHERE c.asset_id = t.asset_id AND c.txid = t.txid)
              AND NOT EXISTS (SELECT 1 FROM saving_plan_occurrences o JOIN saving_plans p ON p.id = o.plan_id
                              WHERE o.txid = t.txid AND p.asset_id = t.asset_id)
            """, arguments: StatementArguments(assetIDs.map { $0 as any DatabaseValueConvertible } + [earliest.startInstant])).map { row in
            ReminderMatcher.Deposit(assetID: row["asset_id"], txid: row["txid"], amount: try row.amount("amount"),
                                    currency: try row.decode(forColumn: "currency"), date: try row.decode(forColumn: "date"),
                                    confirmed: (row["status"] as String) == TransactionStatus.confirmed.rawValue)
        }
        let valuer = try DepositValuer(db, deposits: deposits, currencies: Set(reminders.map(\.currency)))
        for (reminder, outcome) in ReminderMatcher.resolve(reminders, deposits: deposits, now: now, value: valuer.value) {
            switch outcome {
            case .fulfilled(let claims):
                try db.execute(sql: "UPDATE saving_plan_occurrences SET status = 'fulfilled', settled_at = ? WHERE plan_id = ? AND due = ?",
                               arguments: [now, reminder.planID, reminder.due])
                for claim in claims {
                    try db.execute(sql: "INSERT INTO saving_plan_claims (asset_id, txid, plan_id, due, value) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [reminder.assetID, claim.txid, reminder.planID, reminder.due, StoredAmount(claim.value)])
                }
                activity.entries.append(.init(plan: reminder.planName, due: reminder.due, status: .fulfilled, txids: claims.map(\.txid),
                                              notified: false))
            case .missed:
                try db.execute(sql: "UPDATE saving_plan_occurrences SET status = 'missed', settled_at = ? WHERE plan_id = ? AND due = ?",
                               arguments: [now, reminder.planID, reminder.due])
                activity.entries.append(.init(plan: reminder.planName, due: reminder.due, status: .missed, txids: [], notified: false))
            case .pending(waitingFor: .rate(let txid, let pair, let date)?):
                activity.warnings.append("saving plan '\(reminder.planName)' due \(reminder.due) stays pending: no \(pair) rate at \(date.iso8601) to value deposit \(txid); `walletwatch rates backfill` or `rates import` adds one")
            case .pending:
                break
            }
        }
    }
}

/// Values deposits in a plan's currency at their dates: with a rate of the deposit's UTC day
/// when one exists (the day's price that `value_at_date` shows), else the latest rate before
/// it (SPEC.md section 13's "rate at D"), for any pair of currencies (``RateHistory``'s route:
/// the pair, its inverse or a cross), multiplied first and rounded half to even once.
private struct DepositValuer {
    let history: RateHistory

    init(_ db: Database, deposits: [ReminderMatcher.Deposit], currencies: Set<Currency>) throws {
        let needed = currencies.union(deposits.map(\.currency))
        guard let from = deposits.map(\.date).min(), let through = deposits.map(\.date).max(), needed.count > 1 else {
            history = RateHistory([])
            return
        }
        let endOfLastDay = through.day.lastInstant
        history = RateHistory(try AppDatabase.rateHistory(db, currencies: needed, window: (from, endOfLastDay)))
    }

    func value(_ deposit: ReminderMatcher.Deposit, in currency: Currency) -> Int128? {
        guard deposit.currency != currency else { return deposit.amount }
        guard let quote = history.quote(from: deposit.currency, to: currency, onDayOf: deposit.date)
                ?? history.quote(from: deposit.currency, to: currency, at: deposit.date)
        else { return nil }
        return RateTable.convert(Money(minorUnits: deposit.amount, currency: deposit.currency), to: currency, quote: quote)?.minorUnits
    }
}
