import GRDB
import WalletWatchCore

extension AppDatabase {
    static func allocations(_ db: Database, goalID: Int64) throws -> [AllocationRow] {
        try AllocationRow.filter(Column("goal_id") == goalID).fetchAll(db)
    }

    static func allocations(_ db: Database, assetID: Int64) throws -> [AllocationRow] {
        try AllocationRow.filter(Column("asset_id") == assetID).fetchAll(db)
    }

    /// Sets the current target of (asset, goal) and appends the history row, unless the target
    /// is unchanged. A target of 0 removes the current row unless `keepZero` (a `100%`
    /// dedication of an empty asset, which Rule 1 needs to see).
    ///
    /// The history row is dated `at`, moved to 1 ms after the pair's latest row when that is
    /// later, so that a pair's history never goes back in time and its latest row always equals
    /// the current state.
    @discardableResult
    static func writeTarget(
        _ db: Database, assetID: Int64, goalID: Int64, amount: Int64, at timestamp: Instant, now: Instant,
        reason: AllocationReason, txid: String? = nil, keepZero: Bool = false
    ) throws -> Bool {
        let key: [String: any DatabaseValueConvertible] = ["asset_id": assetID, "goal_id": goalID]
        let current = try AllocationRow.fetchOne(db, key: key)
        if amount == 0 && !keepZero {
            guard let current else { return false }
            try AllocationRow.deleteOne(db, key: key)
            // Removing a 0 dedication changes no target: no history row.
            if current.amount == 0 { return true }
        } else {
            if current?.amount == amount { return false }
            try AllocationRow(assetID: assetID, goalID: goalID, amount: amount, updatedAt: now).upsert(db)
            // A new 0 dedication changes no target either (it was 0 before).
            if current == nil && amount == 0 { return true }
        }
        var timestamp = timestamp
        if let latest = try latestHistoryTimestamp(db, assetID: assetID, goalID: goalID), latest >= timestamp {
            timestamp = latest.adding(milliseconds: 1)
        }
        var history = AllocationHistoryRow(
            assetID: assetID, goalID: goalID, amount: amount, timestamp: timestamp, createdAt: now,
            reason: reason, txid: txid)
        try history.insert(db)
        return true
    }

    static func latestHistoryTimestamp(_ db: Database, assetID: Int64, goalID: Int64) throws -> Instant? {
        try Instant.fetchOne(db, sql: """
            SELECT MAX(timestamp) FROM allocation_history WHERE asset_id = ? AND goal_id = ?
            """, arguments: [assetID, goalID])
    }
}
