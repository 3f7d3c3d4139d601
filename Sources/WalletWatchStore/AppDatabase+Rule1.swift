import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Rule 1 (SPEC.md section 5) for the transactions that became confirmed in one write:
    /// decided by Core, written here in the same transaction, exactly once per (asset, txid)
    /// (`rule1_applied_at`, and a unique index on the history). A deposit to an address
    /// reserved for a goal is Rule 1b's (`AppDatabase+Rule1b.swift`, applied right after in the
    /// same transaction): Rule 1 counts it in the balances but never allocates it. Returns how
    /// many were allocated by either rule.
    static func applyRule1(_ db: Database, to confirmed: [NewlyConfirmed], now: Instant) throws -> Int {
        // Rule 1 only looks at assets with allocations; Rule 1b also at the rest.
        let candidates = confirmed + (try reservedDepositsConfirmed(db, at: now, besides: confirmed))
        guard !candidates.isEmpty else { return 0 }
        let reserved = try reservedDeposits(db, of: candidates)
        let balances = try balances(db)
        var applied = 0
        for (assetID, transactions) in Dictionary(grouping: confirmed, by: \.assetID) {
            let allocations = try rule1Allocations(db, assetID: assetID)
            guard !allocations.isEmpty else { continue }
            let decisions = Rule1.decide(
                confirmed: transactions.map { Rule1.Confirmed(txid: $0.txid, amount: $0.amount, date: $0.date) },
                balanceAfterPass: balances[assetID]?.counted ?? 0, allocations: allocations,
                excluding: Set(transactions.filter { reserved[$0.key] != nil }.map(\.txid)))
            for decision in decisions {
                try writeTarget(db, assetID: assetID, goalID: decision.goalID, amount: decision.newTarget,
                                at: decision.date, now: now, reason: .rule1, txid: decision.txid, keepZero: true)
                try markRule1Applied(db, assetID: assetID, txid: decision.txid, now: now)
                applied += 1
            }
        }
        return applied + (try applyRule1b(db, to: candidates, deposits: reserved, now: now))
    }

    /// Marks one transaction as allocated by Rule 1 or 1b, so that no later pass allocates it
    /// again. A cached statement: it runs once per allocated deposit.
    static func markRule1Applied(_ db: Database, assetID: Int64, txid: String, now: Instant) throws {
        try db.cachedStatement(sql: "UPDATE ledger SET rule1_applied_at = ? WHERE txid = ? AND asset_id = ?")
            .execute(arguments: [now, txid, assetID])
    }

    /// The asset's allocations as Rule 1 sees them (cancelled goals hold none).
    static func rule1Allocations(_ db: Database, assetID: Int64) throws -> [Rule1.Allocation] {
        try Row.fetchAll(db, sql: """
            SELECT a.goal_id, a.amount, g.status FROM asset_allocations a JOIN goals g ON g.id = a.goal_id
            WHERE a.asset_id = ? AND g.status != 'cancelled'
            """, arguments: [assetID]).map {
            Rule1.Allocation(goalID: try $0.decode(forColumn: "goal_id"), goalStatus: try $0.decode(forColumn: "status"),
                             amount: try $0.amount("amount"))
        }
    }

    /// When an auto-allocated manual transaction is edited or deleted, its goal's target follows
    /// the change of amount (never below zero), if the asset still holds that goal's allocation.
    static func adjustRule1(_ db: Database, assetID: Int64, txid: String, delta: Int128, now: Instant) throws {
        guard delta != 0, let goalID = try Int64.fetchOne(db, sql: """
            SELECT goal_id FROM allocation_history WHERE asset_id = ? AND txid = ? AND reason = 'rule1'
            """, arguments: [assetID, txid]),
            let current = try AllocationRow.fetchOne(db, key: ["asset_id": assetID, "goal_id": goalID])
        else { return }
        try writeTarget(db, assetID: assetID, goalID: goalID, amount: max(0, current.amount + delta), at: now, now: now,
                        reason: .rule1Adjust, txid: txid, keepZero: true)
    }
}
