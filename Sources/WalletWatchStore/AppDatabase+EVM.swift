import GRDB
import WalletWatchCore

extension AppDatabase {
    /// What `source`'s next evm pass starts from: the tip it saw last, every address's figures
    /// per asset, and the blocks of its transactions still above the confirmation depth.
    public func evmSyncState(source: String) async throws -> EVMSyncState {
        try await read { db in
            let tip = try Int64.fetchOne(db, sql: "SELECT height FROM chain_tips WHERE source = ?", arguments: [source])
            let pairs = try Row.fetchAll(db, sql: "SELECT address, asset, balance, counted, nonce, synced_block FROM evm_sync WHERE source = ?",
                                         arguments: [source]).compactMap { row -> EVMPairState? in
                guard let address = EVMAddress(row["address"] as String), let asset = EVMAssetKey(stored: row["asset"]) else { return nil }
                return EVMPairState(address: address, asset: asset, balance: try row.amount("balance"), counted: try row.amount("counted"),
                                    nonce: row["nonce"], syncedBlock: row["synced_block"])
            }
            let pending = try Row.fetchAll(db, sql: "SELECT asset, txid, block FROM evm_pending WHERE source = ?", arguments: [source])
                .compactMap { row -> EVMPendingBlock? in
                    guard let asset = EVMAssetKey(stored: row["asset"]) else { return nil }
                    return EVMPendingBlock(asset: asset, txid: row["txid"], block: row["block"])
                }
            return EVMSyncState(tip: tip, pairs: pairs, pending: pending)
        }
    }

    /// The confirmed rows of `source`'s evm asset in `currency`: txid to amount (empty before
    /// the asset exists). The pass adds them up against the balance (SPEC.md section 26, "Checks").
    public func evmConfirmedRows(source: String, currency: Currency) async throws -> [String: Int128] {
        try await read { db in
            var rows: [String: Int128] = [:]
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT txid, amount FROM transactions
                WHERE asset_id = (SELECT id FROM assets WHERE source = ? AND kind = 'evm' AND currency = ?) AND status = 'confirmed'
                """, arguments: [source, currency.code])
            while let row = try cursor.next() { rows[row["txid"]] = try row.amount("amount") }
            return rows
        }
    }

    /// Token contracts `source` saw moving tokens to or from its addresses that it does not
    /// watch, oldest first (`doctor` lists them).
    public func evmUnlistedTokens(source: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT contract FROM evm_unlisted_tokens WHERE source = ? ORDER BY first_seen, contract", arguments: [source])
        }
    }
}

extension PassPublication {
    /// Stores what an evm pass leaves for the next one: the figures of each address and asset,
    /// the pending transactions' blocks (replacing the source's), token contracts seen but not
    /// watched, and the tip (nil keeps the stored one: a pass whose rows did not add up leaves
    /// the tip where it was, so that the next pass asks again even if no block came).
    public func saveEVMState(pairs: [EVMPairState], pending: [EVMPendingBlock], unlistedTokens: [String], tip: Int64?) throws {
        for pair in pairs {
            try db.execute(sql: """
                INSERT INTO evm_sync (source, address, asset, balance, counted, nonce, synced_block) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(source, address, asset) DO UPDATE SET balance = excluded.balance, counted = excluded.counted,
                    nonce = excluded.nonce, synced_block = excluded.synced_block
                """, arguments: [source, pair.address.lowercased, pair.asset.description, StoredAmount(pair.balance),
                                 StoredAmount(pair.counted), pair.nonce, pair.syncedBlock])
        }
        try db.execute(sql: "DELETE FROM evm_pending WHERE source = ?", arguments: [source])
        for block in pending {
            try db.execute(sql: "INSERT OR REPLACE INTO evm_pending (source, asset, txid, block) VALUES (?, ?, ?, ?)",
                           arguments: [source, block.asset.description, block.txid, block.block])
        }
        for contract in unlistedTokens {
            try db.execute(sql: "INSERT OR IGNORE INTO evm_unlisted_tokens (source, contract, first_seen) VALUES (?, ?, ?)",
                           arguments: [source, contract, now])
        }
        if let tip { try saveTip(tip) }
    }

    /// Marks `txids` of `asset` failed: pending transactions a reorganisation removed, once
    /// their height is final (SPEC.md section 26).
    public func markFailed(_ txids: [String], in asset: PassAsset) throws {
        guard let id = assetIDs[asset] else { return }
        for txid in txids {
            try db.execute(sql: "UPDATE ledger SET status = 'failed', last_updated = ? WHERE txid = ? AND asset_id = ? AND status = 'pending'",
                           arguments: [now, txid, id])
        }
    }
}

extension AppDatabase {
    /// Stores the balances of an evm source's assets fetched outside a pass (`walletwatch
    /// balance`'s cache refresh): each asset by (currency, name), created when the source was
    /// never ingested.
    public func saveAssetBalances(source: String, balances: [(asset: String, currency: Currency, counted: Int128, pending: Int128)], now: Instant) throws {
        try write { db in
            var ids: [PassAsset: Int64] = [:]
            for balance in balances {
                ids[PassAsset(kind: .evm, currency: balance.currency)] = try Self.sourceAsset(
                    db, source: source, kind: .evm, currency: balance.currency, name: balance.asset, now: now)
            }
            let publication = PassPublication(db: db, source: source, now: now, assetIDs: ids)
            for balance in balances {
                try publication.saveBalance(of: PassAsset(kind: .evm, currency: balance.currency), counted: balance.counted, pending: balance.pending)
            }
            try Self.bumpChangeCounter(db)
        }
    }

    /// When the oldest stored per-asset balance of `source` was written; nil when it has none.
    public func assetBalancesUpdated(source: String) throws -> Instant? {
        try read { db in
            try Instant.fetchOne(db, sql: """
                SELECT min(b.last_updated) FROM asset_balances b JOIN assets a ON a.id = b.asset_id WHERE a.source = ?
                """, arguments: [source])
        }
    }
}

/// An evm asset's stored balance beside the sum of its confirmed rows.
public struct EVMReconciliation: Sendable, Equatable {
    public let asset: String
    public let currency: Currency
    public let counted: Int128
    public let rows: Int128
    public var difference: Int128 { counted - rows }
}

extension AppDatabase {
    /// Each evm asset of `source` with a stored balance: that balance beside its confirmed rows' sum.
    public func evmReconciliation(source: String) throws -> [EVMReconciliation] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.name, a.currency, b.counted,
                       (SELECT amount_total(t.amount) FROM transactions t WHERE t.asset_id = a.id AND t.status = 'confirmed') AS rows
                FROM assets a JOIN asset_balances b ON b.asset_id = a.id
                WHERE a.source = ? AND a.kind = 'evm' ORDER BY a.id
                """, arguments: [source]).map { row in
                let registry = try Self.currencyRegistry(db)
                return EVMReconciliation(asset: row["name"], currency: try registry.currency(row["currency"]), counted: try row.amount("counted"),
                                         rows: try row.optionalAmount("rows") ?? 0)
            }
        }
    }
}
