import GRDB
import WalletWatchCore

extension NewlyConfirmed {
    /// `assetID:txid`: one transaction of one asset.
    var key: String { "\(assetID):\(txid)" }
}

extension AppDatabase {
    /// The confirmed transactions, not auto-allocated yet, whose payments to reserved addresses
    /// this pass recorded (at `now`), other than `listed`: those of assets without allocations,
    /// which the pass does not hand to Rule 1. A payment is recorded each time a pass reads the
    /// transaction, so one that confirms is seen by the pass that reads it confirmed.
    static func reservedDepositsConfirmed(_ db: Database, at now: Instant, besides listed: [NewlyConfirmed]) throws -> [NewlyConfirmed] {
        let known = Set(listed.map(\.key))
        return try Row.fetchAll(db, sql: """
            SELECT DISTINCT a.id AS asset_id, t.txid, t.amount, t.date FROM reserved_receipts r
            JOIN assets a ON a.source = r.source AND a.kind = 'addresses'
            JOIN transactions t ON t.asset_id = a.id AND t.txid = r.txid
            WHERE r.recorded_at = ? AND t.status = 'confirmed' AND t.rule1_applied_at IS NULL
            """, arguments: [now]).map {
            NewlyConfirmed(assetID: try $0.decode(forColumn: "asset_id"), txid: try $0.decode(forColumn: "txid"),
                           amount: try $0.amount("amount"), date: try $0.decode(forColumn: "date"))
        }.filter { !known.contains($0.key) }
    }

    /// What each of `confirmed` paid to addresses reserved for a goal, by ``NewlyConfirmed/key``;
    /// transactions that paid none are absent. Ordered by address, which orders Rule 1b's
    /// decisions when one transaction pays several reserved addresses.
    static func reservedDeposits(_ db: Database, of confirmed: [NewlyConfirmed]) throws -> [String: [Rule1b.Deposit]] {
        // Only address lists reserve addresses: the other assets' transactions (a first pass of a
        // long Ark history) need no query each.
        let reserving = Set(try Int64.fetchAll(db, sql: """
            SELECT DISTINCT a.id FROM assets a JOIN derived_addresses d ON d.source = a.source
            WHERE a.kind = 'addresses' AND d.reserved_goal_id IS NOT NULL
            """))
        var deposits: [String: [Rule1b.Deposit]] = [:]
        for transaction in confirmed where reserving.contains(transaction.assetID) && deposits[transaction.key] == nil {
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT d.reserved_goal_id AS goal_id, g.status, r.amount FROM reserved_receipts r
                JOIN assets a ON a.source = r.source AND a.kind = 'addresses'
                JOIN derived_addresses d ON d.source = r.source AND d.address = r.address
                JOIN goals g ON g.id = d.reserved_goal_id
                WHERE a.id = ? AND r.txid = ?
                ORDER BY r.address
                """), arguments: [transaction.assetID, transaction.txid])
            guard !rows.isEmpty else { continue }
            deposits[transaction.key] = try rows.map {
                Rule1b.Deposit(goalID: try $0.decode(forColumn: "goal_id"), goalStatus: try $0.decode(forColumn: "status"),
                               amount: try $0.amount("amount"))
            }
        }
        return deposits
    }

    /// Rule 1b (SPEC.md section 16) for the transactions that became confirmed in one write: a
    /// transaction that paid an address reserved for an active goal raises that goal's target
    /// by what it paid there (decided by Core), with a history row at the transaction's date,
    /// exactly once (`rule1_applied_at`, and a unique index on the history). A reservation of a
    /// cancelled or finished goal does not apply: that deposit stays unallocated. Returns how
    /// many transactions it allocated.
    static func applyRule1b(_ db: Database, to confirmed: [NewlyConfirmed], deposits: [String: [Rule1b.Deposit]], now: Instant) throws -> Int {
        var applied = 0
        var done = Set<String>()
        for transaction in confirmed.sorted(by: { ($0.date, $0.txid) < ($1.date, $1.txid) }) {
            guard let paid = deposits[transaction.key], done.insert(transaction.key).inserted else { continue }
            let targets = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                SELECT goal_id, amount FROM asset_allocations WHERE asset_id = ?
                """, arguments: [transaction.assetID]).map { (try $0.decode(forColumn: "goal_id") as Int64, try $0.amount("amount")) })
            let decisions = Rule1b.decide(deposits: paid, netAmount: transaction.amount, targets: targets)
            for decision in decisions {
                try writeTarget(db, assetID: transaction.assetID, goalID: decision.goalID, amount: decision.newTarget,
                                at: transaction.date, now: now, reason: .rule1b, txid: transaction.txid, keepZero: true)
            }
            guard !decisions.isEmpty else { continue }
            try markRule1Applied(db, assetID: transaction.assetID, txid: transaction.txid, now: now)
            applied += 1
        }
        return applied
    }
}
