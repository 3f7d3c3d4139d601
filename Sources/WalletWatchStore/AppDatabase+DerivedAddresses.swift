import GRDB
import WalletWatchCore

/// The watched addresses of HD wallets (SPEC.md section 15): derived once, kept with what the
/// explorer last said about them, and the goal an address is reserved for (section 16).
extension AppDatabase {
    /// A source's stored addresses: receive chain, then change, then listed, each by index.
    public func walletAddresses(source: String) async throws -> [WalletAddress] {
        try await read { db in try Self.walletAddresses(db, source: source).map(\.address) }
    }

    /// The same with the goal each address is reserved for, for listing.
    public func walletAddressListing(source: String) throws -> [WalletAddressListing] {
        try read { db in try Self.walletAddresses(db, source: source) }
    }

    /// Reserves the next unused receive address of `source`'s wallet for the active goal `goalName`,
    /// or returns the one already reserved for it while that is still unused. The next one is
    /// the first index above the highest used receive address that is not reserved yet; one past
    /// the stored addresses is made by `derive` and stored (the next pass then watches it).
    public func reserveAddress(
        source: String, goalName: String, now: Instant, derive: @escaping @Sendable (Int) throws -> WalletAddress
    ) async throws -> (goal: Goal, address: WalletAddress) {
        try await write { db in
            let goal = try Self.findGoal(db, named: goalName)
            guard goal.status == .active else {
                throw Refusal("goal '\(goal.name)' is \(goal.status.rawValue); only an active goal can have a deposit address")
            }
            let stored = try Self.walletAddresses(db, source: source).filter { $0.address.chain == .receive }
            if let reserved = stored.first(where: { $0.reservedFor.map(Name.key) == Name.key(goal.name) && !$0.address.activity.isUsed }) {
                return (goal, reserved.address)
            }
            let highestUsed = stored.last(where: { $0.address.activity.isUsed })?.address.index ?? -1
            var chosen = stored.first { $0.address.index > highestUsed && $0.reservedFor == nil && !$0.address.activity.isUsed }?.address
            if chosen == nil {
                chosen = try derive(max(highestUsed, stored.last?.address.index ?? -1) + 1)
                try Self.upsert(db, chosen!, source: source)
            }
            try db.execute(sql: """
                UPDATE derived_addresses SET reserved_goal_id = ?, reserved_at = ? WHERE source = ? AND address = ?
                """, arguments: [goal.id, now, source, chosen!.address])
            return (goal, chosen!)
        }
    }

    static func walletAddresses(_ db: Database, source: String) throws -> [WalletAddressListing] {
        try Row.fetchAll(db, sql: """
            SELECT d.*, g.name AS goal_name FROM derived_addresses d LEFT JOIN goals g ON g.id = d.reserved_goal_id
            WHERE d.source = ?
            ORDER BY CASE d.chain WHEN 'receive' THEN 0 WHEN 'change' THEN 1 ELSE 2 END, d.address_index
            """, arguments: [source]).map { row in
            WalletAddressListing(address: try walletAddress(row), reservedFor: row["goal_name"])
        }
    }

    static func walletAddress(_ row: Row) throws -> WalletAddress {
        let chainText: String = try row.decode(forColumn: "chain")
        guard let chain = WalletChain(rawValue: chainText) else { throw DatabaseError(message: "unknown chain '\(chainText)'") }
        return WalletAddress(
            chain: chain, index: try row.decode(forColumn: "address_index"), script: try row.decode(forColumn: "script"),
            address: try row.decode(forColumn: "address"),
            activity: AddressActivity(
                chainTxCount: try row.decode(forColumn: "chain_tx_count"), funded: try row.decode(forColumn: "funded"),
                spent: try row.decode(forColumn: "spent"), mempoolTxCount: try row.decode(forColumn: "mempool_tx_count"),
                mempoolDelta: try row.decode(forColumn: "mempool_delta")),
            firstUsedAt: try row.decode(forColumn: "first_used_at"), syncedAt: try row.decode(forColumn: "synced_at"),
            status: try row.decode(forColumn: "script_status"))
    }

    /// Inserts or updates an address's row; its reservation is left as it is.
    static func upsert(_ db: Database, _ address: WalletAddress, source: String) throws {
        try db.execute(sql: """
            INSERT INTO derived_addresses (source, chain, address_index, script, address, first_used_at, chain_tx_count, funded,
                spent, mempool_tx_count, mempool_delta, synced_at, script_status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(source, address) DO UPDATE SET chain = excluded.chain, address_index = excluded.address_index,
                script = excluded.script, first_used_at = excluded.first_used_at, chain_tx_count = excluded.chain_tx_count,
                funded = excluded.funded, spent = excluded.spent, mempool_tx_count = excluded.mempool_tx_count,
                mempool_delta = excluded.mempool_delta, synced_at = excluded.synced_at, script_status = excluded.script_status
            """, arguments: [source, address.chain.rawValue, address.index, address.script, address.address, address.firstUsedAt,
                             address.activity.chainTxCount, address.activity.funded, address.activity.spent,
                             address.activity.mempoolTxCount, address.activity.mempoolDelta, address.syncedAt, address.status])
    }
}
