import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Records a failed pass: its `ingest_runs` row, with the one-line reason, and the
    /// source's run of failures (`source.failing` at the third in a row), in one transaction.
    public func recordIngestFailure(source: String, startedAt: Instant, finishedAt: Instant, error: String) async throws {
        _ = try await write { db in
            try db.execute(sql: """
                INSERT INTO ingest_runs (source, started_at, finished_at, ok, error) VALUES (?, ?, ?, 0, ?)
                """, arguments: [source, startedAt, finishedAt, error])
            try Self.recordPassFailed(source: source, error: error, now: finishedAt, in: db)
        }
    }

    /// The addresses of an Esplora source whose histories an earlier pass stored whole.
    public func syncedAddresses(source: String) async throws -> Set<String> {
        try await read { db in
            try String.fetchSet(db, sql: "SELECT address FROM esplora_synced_addresses WHERE source = ?", arguments: [source])
        }
    }

    /// The txids of the confirmed transactions of a source's asset (empty when it does not exist yet).
    public func confirmedTxids(source: String, kind: AssetKind) async throws -> Set<String> {
        try await read { db in
            try String.fetchSet(db, sql: """
                SELECT txid FROM transactions
                WHERE asset_id = (SELECT id FROM assets WHERE source = ? AND kind = ?) AND status = 'confirmed'
                """, arguments: [source, kind])
        }
    }

    /// The id of `source`'s asset of `kind` in `currency`, created when it does not exist yet
    /// and renamed when the config gives it a new name. An asset that a running pass of the
    /// source created and has not published yet is used as it is: the pass publishes it.
    static func sourceAsset(_ db: Database, source: String, kind: AssetKind, currency: Currency = .btc, name: String, now: Instant) throws -> Int64 {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM asset_rows WHERE source = ? AND kind = ? AND currency = ?",
                                       arguments: [source, kind, currency]) {
            try renameSourceAsset(db, id: id, to: name)
            return id
        }
        let key = PassAsset(kind: kind, currency: currency)
        let state = PassAssetState(key: key, name: name, id: nil, hadRows: false, tracksRule1: false, announces: false)
        return try state.create(db, source: source, now: now, pass: nil)
    }

    /// Gives a source's asset the name its config now gives it.
    static func renameSourceAsset(_ db: Database, id: Int64, to name: String) throws {
        guard let current = try String.fetchOne(db, sql: "SELECT name FROM asset_rows WHERE id = ?", arguments: [id]),
              current != name else { return }
        if Name.key(current) != Name.key(name) {
            try ensureNameIsFree(db, table: AssetRow.databaseTableName, name: name, what: "asset")
        }
        try db.execute(sql: "UPDATE asset_rows SET name = ? WHERE id = ?", arguments: [name, id])
    }
}
