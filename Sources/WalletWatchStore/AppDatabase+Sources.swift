import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Stores freshly fetched balances of a source (the balance cache), creating its assets
    /// when they do not exist yet, in one transaction.
    public func saveBalances(
        source: String, ark: (asset: String, balance: ArkBalance)?, onchain: (asset: String, kind: AssetKind, balance: OnchainBalance)?,
        now: Instant
    ) throws {
        try write { db in
            let publication = PassPublication(db: db, source: source, now: now, assetIDs: [:])
            if let ark {
                _ = try Self.sourceAsset(db, source: source, kind: .ark, name: ark.asset, now: now)
                try publication.save(ark.balance)
            }
            if let onchain {
                _ = try Self.sourceAsset(db, source: source, kind: onchain.kind, name: onchain.asset, now: now)
                try publication.save(onchain.balance)
            }
            try Self.bumpChangeCounter(db)
        }
    }

    /// The stored Ark balance of each source.
    public func arkBalances() throws -> [String: SourceArkBalance] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try SourceArkBalance.fetchAll(db).map { ($0.source, $0) })
        }
    }

    /// The stored on-chain balance of each source.
    public func onchainBalances() throws -> [String: SourceOnchainBalance] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try SourceOnchainBalance.fetchAll(db).map { ($0.source, $0) })
        }
    }

    /// The last pass of each source that has run.
    public func lastIngestRuns() throws -> [String: IngestRun] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT r.* FROM ingest_runs r
                JOIN (SELECT source, MAX(id) AS id FROM ingest_runs GROUP BY source) latest ON latest.id = r.id
                """)
            return Dictionary(uniqueKeysWithValues: try rows.map { row in
                let run = IngestRun(
                    source: try row.decode(forColumn: "source"), startedAt: try row.decode(forColumn: "started_at"),
                    finishedAt: try row.decode(forColumn: "finished_at"), ok: try row.decode(forColumn: "ok"),
                    counts: IngestCounts(new: try row.decode(forColumn: "new"), updated: try row.decode(forColumn: "updated"),
                                         dropped: try row.decode(forColumn: "dropped"),
                                         autoAllocated: try row.decode(forColumn: "auto_allocated")),
                    error: try row.decode(forColumn: "error"))
                return (run.source, run)
            })
        }
    }

    /// Unspent VTXOs of every source.
    public func vtxos() throws -> [StoredVTXO] {
        try read { db in
            try VTXORow.order(Column("expiry_height")).fetchAll(db).map { StoredVTXO(source: $0.source, vtxo: $0.vtxo) }
        }
    }

    /// The last chain tip each source reported.
    public func chainTips() throws -> [String: Int64] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT source, height FROM chain_tips").map {
                (try $0.decode(String.self, forColumn: "source"), try $0.decode(Int64.self, forColumn: "height"))
            })
        }
    }

    /// Counts of what a source stored, for tests and reports.
    public func transactionCount(source: String? = nil) throws -> Int {
        try read { db in
            if let source {
                return try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM transactions WHERE asset_id IN (SELECT id FROM assets WHERE source = ?)
                    """, arguments: [source]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions") ?? 0
        }
    }
}

extension AppDatabase {
    /// Totals of the recorded passes per source (by every process: CLI and daemon).
    public func ingestRunTotals() throws -> [IngestRunTotals] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT source, SUM(ok) AS succeeded, SUM(1 - ok) AS failed,
                       MAX(CASE WHEN ok = 1 THEN finished_at END) AS last_success
                FROM ingest_runs GROUP BY source ORDER BY source
                """).map {
                IngestRunTotals(source: try $0.decode(forColumn: "source"), succeeded: try $0.decode(forColumn: "succeeded"),
                                failed: try $0.decode(forColumn: "failed"), lastSuccess: try $0.decode(forColumn: "last_success"))
            }
        }
    }
}
