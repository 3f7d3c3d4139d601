import GRDB
import WalletWatchCore

/// A transaction change that a pass announces (`transaction.new`, `.confirmed`, `.failed`),
/// written to the outbox by the pass's publication with what is stored for it then.
struct TransactionNotice: Sendable {
    let asset: PassAsset
    let event: NotificationEvent.Name
    let txid: String
}

extension AppDatabase {
    /// The event names some target subscribes to: a write that would announce nothing anyone
    /// wants skips building its events.
    static func subscribedEvents(_ db: Database) throws -> Set<String> {
        try String.fetchSet(db, sql: "SELECT DISTINCT event FROM notify_subscriptions")
    }

    /// Writes the pass's transaction events, each with its row as the pass left it:
    /// `{"txid", "asset", "amount", "currency", "status", "date"}` (CLI.md "Webhook request").
    static func announce(_ notices: [TransactionNotice], assets: [PassAsset: Int64], names: [PassAsset: String], now: Instant,
                         in db: Database) throws {
        guard !notices.isEmpty else { return }
        let listening = try subscribedEvents(db)
        var seen: Set<String> = []
        for notice in notices where listening.contains(notice.event.rawValue) {
            // A txid a source reported twice in one answer is announced once.
            guard seen.insert("\(notice.asset.kind):\(notice.asset.currency):\(notice.txid):\(notice.event)").inserted else { continue }
            guard let assetID = assets[notice.asset],
                  let row = try Row.fetchOne(db, sql: "SELECT amount, status, date FROM ledger WHERE asset_id = ? AND txid = ?",
                                             arguments: [assetID, notice.txid])
            else { continue }
            try enqueue(NotificationEvent(notice.event, at: now, data: .object([
                "txid": .string(notice.txid), "asset": .string(names[notice.asset] ?? ""), "amount": .int(try row.amount("amount")),
                "currency": .string(notice.asset.currency.code), "status": .string(row["status"] as String), "date": .string(row["date"] as String?),
            ])), in: db)
        }
    }

    /// The newest allocation-history row: Rule 1's and 1b's rows written after it are what
    /// ``announceAutoAllocations(after:now:in:)`` reports.
    static func lastHistoryID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM allocation_history") ?? 0
    }

    /// Writes an `allocation.auto` event for each Rule 1 or 1b row written after `historyID`:
    /// `{"txid", "asset", "goal", "amount", "rule"}`, the amount being how much the goal's
    /// target on the asset rose (in the asset's minor units).
    static func announceAutoAllocations(after historyID: Int64, now: Instant, in db: Database) throws {
        guard try subscribedEvents(db).contains(NotificationEvent.Name.allocationAuto.rawValue) else { return }
        let rows = try Row.fetchAll(db, sql: """
            SELECT h.txid, a.name AS asset, g.name AS goal, h.amount, h.reason,
                COALESCE((SELECT p.amount FROM allocation_history p WHERE p.asset_id = h.asset_id AND p.goal_id = h.goal_id AND p.id < h.id
                          ORDER BY p.id DESC LIMIT 1), 0) AS previous
            FROM allocation_history h JOIN asset_rows a ON a.id = h.asset_id JOIN goals g ON g.id = h.goal_id
            WHERE h.id > ? AND h.reason IN ('rule1', 'rule1b') ORDER BY h.id
            """, arguments: [historyID])
        for row in rows {
            let reason: String = row["reason"]
            let (amount, previous) = (try row.amount("amount"), try row.amount("previous"))
            try enqueue(NotificationEvent(.allocationAuto, at: now, data: .object([
                "txid": .string(row["txid"] as String?), "asset": .string(row["asset"] as String), "goal": .string(row["goal"] as String),
                "amount": .int(amount - previous), "rule": .string(reason == "rule1b" ? "1b" : "1"),
            ])), in: db)
        }
    }

    /// Writes `goal.reached` for each active goal whose funded amount, at the latest stored
    /// rates, covers its target for the first time: once per goal, ever (a goal that drops
    /// below its target and reaches it again is not announced twice). Call it in every write
    /// that can raise a funded amount: a pass's publication, a manual transaction, an allocation.
    static func announceReachedGoals(now: Instant, in db: Database) throws {
        let candidates = try Int64.fetchSet(db, sql: """
            SELECT id FROM goals WHERE status = 'active' AND \(AmountSQL.isPositive("target")) AND id NOT IN (SELECT goal_id FROM notify_goals_reached)
            AND id IN (SELECT goal_id FROM asset_allocations)
            """)
        guard !candidates.isEmpty else { return }
        let rates = RateTable(rates: try latestRates(db), now: now, maxAgeSeconds: .max)
        for overview in try goalOverviews(db) where candidates.contains(overview.goal.id!) {
            let progress = GoalProgress(goal: overview.goal, shares: overview.shares.map { Money(minorUnits: $0.funded, currency: $0.asset.currency) },
                                        converter: rates)
            guard progress.reached == true, let funded = progress.funded else { continue }
            try db.execute(sql: "INSERT INTO notify_goals_reached (goal_id, reached_at) VALUES (?, ?)", arguments: [overview.goal.id!, now])
            try enqueue(NotificationEvent(.goalReached, at: now, data: .object([
                "goal": .string(overview.goal.name), "funded": .int(funded), "target": .int(overview.goal.target),
                "currency": .string(overview.goal.currency.code),
            ])), in: db)
        }
    }
}
