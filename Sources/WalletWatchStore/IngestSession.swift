import GRDB
import WalletWatchCore

/// A transaction that became confirmed in the current pass (the input of Rule 1).
struct NewlyConfirmed: Sendable {
    let assetID: Int64
    let txid: String
    let amount: Int64
    let date: Instant
}

/// The writes of one source's pass, available only inside ``AppDatabase/ingest(source:startedAt:now:_:)``,
/// where they all happen in one database transaction.
public struct IngestSession {
    let db: Database
    let source: String
    let now: Instant
    var counts = IngestCounts()
    var newlyConfirmed: [NewlyConfirmed] = []
    /// The prepared statements and per-asset state of the recording, for this transaction only.
    let recording = TransactionRecording()

    /// The id of the source's asset of `kind`, created (currency BTC) on first sight, renamed
    /// when the config gives it a new name.
    public mutating func asset(kind: AssetKind, name: String) throws -> Int64 {
        if var existing = try Asset.filter(Column("source") == source && Column("kind") == kind).fetchOne(db) {
            if existing.name != name {
                if Name.key(existing.name) != Name.key(name) {
                    try AppDatabase.ensureNameIsFree(db, table: Asset.databaseTableName, name: name, what: "asset")
                }
                existing.name = name
                try existing.update(db)
            }
            return existing.id!
        }
        do {
            try AppDatabase.ensureNameIsFree(db, table: Asset.databaseTableName, name: name, what: "asset")
        } catch {
            throw Refusal("the asset name '\(name)' of source '\(source)' is already used by another asset; give the source another asset name in the config")
        }
        var asset = Asset(name: name, currency: .btc, kind: kind, source: source, createdAt: now)
        try asset.insert(db)
        return asset.id!
    }

    /// Stores the source's Ark balance as of now.
    public func save(_ balance: ArkBalance) throws {
        try SourceArkBalance(source: source, balance: balance, lastUpdated: now).upsert(db)
    }

    /// Stores the source's on-chain balance as of now.
    public func save(_ balance: OnchainBalance) throws {
        try SourceOnchainBalance(source: source, balance: balance, lastUpdated: now).upsert(db)
    }

    /// Records that these addresses' histories are stored whole as of this pass.
    public func markSynced(addresses: [String]) throws {
        for address in addresses {
            try db.execute(sql: """
                INSERT INTO esplora_synced_addresses (source, address, synced_at) VALUES (?, ?, ?)
                ON CONFLICT(source, address) DO UPDATE SET synced_at = excluded.synced_at
                """, arguments: [source, address, now])
        }
    }

    /// Stores the chain tip the source reported.
    public func saveTip(_ height: Int64) throws {
        try db.execute(sql: """
            INSERT INTO chain_tips (source, height, fetched_at) VALUES (?, ?, ?)
            ON CONFLICT(source) DO UPDATE SET height = excluded.height, fetched_at = excluded.fetched_at
            """, arguments: [source, height, now])
    }

    /// Stores what the wallet says about its Ark server. The VTXO lifetime goes into the
    /// `vtxo_expiry_delta` column (SPEC.md section 3's "vtxo expiry delta"; null when unknown).
    public func save(_ info: ArkServerInfo) throws {
        try db.execute(sql: """
            INSERT INTO ark_info (source, network, server_pubkey, round_interval, vtxo_expiry_delta, fetched_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(source) DO UPDATE SET network = excluded.network, server_pubkey = excluded.server_pubkey,
                round_interval = excluded.round_interval, vtxo_expiry_delta = excluded.vtxo_expiry_delta,
                fetched_at = excluded.fetched_at
            """, arguments: [source, info.network, info.serverPubkey, info.roundInterval, info.vtxoLifetime, now])
    }

    /// Makes the stored VTXOs of the source exactly `vtxos`, writing only the differences.
    public func replace(_ vtxos: [VTXO]) throws {
        let stored = try Dictionary(uniqueKeysWithValues: VTXORow.filter(Column("source") == source).fetchAll(db).map { ($0.vtxo.id, $0.vtxo) })
        let reported = Set(vtxos.map(\.id))
        for id in stored.keys where !reported.contains(id) {
            try VTXORow.deleteOne(db, key: ["source": source, "id": id])
        }
        for vtxo in vtxos where stored[vtxo.id] != vtxo {
            try VTXORow(source: source, vtxo: vtxo, lastUpdated: now).upsert(db)
        }
    }

    /// Makes the stored UTXOs of the source exactly `utxos`, writing only the differences.
    public func replace(_ utxos: [UTXO]) throws {
        let stored = try Dictionary(uniqueKeysWithValues: UTXORow.filter(Column("source") == source).fetchAll(db).map { ($0.utxo.outpoint, $0.utxo) })
        let reported = Set(utxos.map(\.outpoint))
        for outpoint in stored.keys where !reported.contains(outpoint) {
            try UTXORow.deleteOne(db, key: ["source": source, "outpoint": outpoint])
        }
        for utxo in utxos where stored[utxo.outpoint] != utxo {
            try UTXORow(source: source, utxo: utxo, lastUpdated: now).upsert(db)
        }
    }

    /// Inserts new transactions and updates changed ones in place; unchanged rows are not
    /// written. A transaction without a date from its source is dated by its estimate or now
    /// (when first seen), and keeps the date it was first stored with. May be called with
    /// successive batches of one asset's transactions (a streamed history).
    public mutating func record(_ transactions: [ObservedTransaction], assetID: Int64) throws {
        let asset = try recording.asset(assetID, db)
        for observed in transactions {
            if !asset.pendingNotReported.isEmpty { asset.pendingNotReported.remove(observed.txid) }
            guard asset.hadRows, let stored = try recording.lookup(db, assetID: assetID, txid: observed.txid) else {
                if try recording.insert(db, observed, assetID: assetID, now: now) {
                    counts.new += 1
                    if observed.status == .confirmed && asset.tracksRule1 {
                        newlyConfirmed.append(NewlyConfirmed(assetID: assetID, txid: observed.txid, amount: observed.amount,
                                                             date: observed.date ?? observed.estimatedDate ?? now))
                    }
                }
                continue
            }
            guard let change = stored.change(to: observed) else { continue }
            try recording.update(db, change, txid: observed.txid, assetID: assetID, now: now)
            counts.updated += 1
            if change.becameConfirmed && asset.tracksRule1 {
                newlyConfirmed.append(NewlyConfirmed(assetID: assetID, txid: observed.txid, amount: observed.amount, date: change.date))
            }
        }
    }

    /// Marks as failed (never deletes) the asset's unconfirmed transactions that the source did
    /// not report in this pass (sources always report their unconfirmed transactions in full).
    public mutating func markVanished(assetID: Int64) throws {
        let asset = try recording.asset(assetID, db)
        for txid in asset.pendingNotReported.sorted() {
            try db.execute(sql: "UPDATE transactions SET status = 'failed', last_updated = ? WHERE asset_id = ? AND txid = ?",
                           arguments: [now, assetID, txid])
            counts.dropped += 1
        }
        asset.pendingNotReported.removeAll()
    }

    /// The txids of the asset's confirmed transactions (for incremental syncs).
    public func confirmedTxids(assetID: Int64) throws -> Set<String> {
        try String.fetchSet(db, sql: "SELECT txid FROM transactions WHERE asset_id = ? AND status = 'confirmed'", arguments: [assetID])
    }
}

extension AppDatabase {
    /// Runs one source's pass in one write transaction: `body` stores what the source
    /// reported, then Rule 1 runs on the transactions that became confirmed, the run is recorded
    /// in `ingest_runs`, and the change counter moves. Any error rolls everything back: a
    /// failed pass changes nothing stored (record the failure with ``recordIngestFailure``).
    public func ingest(
        source: String, startedAt: Instant, now: Instant, _ body: @escaping @Sendable (inout IngestSession) throws -> Void
    ) async throws -> IngestCounts {
        try await write { db in
            var session = IngestSession(db: db, source: source, now: now)
            try body(&session)
            session.counts.autoAllocated = try Self.applyRule1(db, to: session.newlyConfirmed, now: now)
            try db.execute(sql: """
                INSERT INTO ingest_runs (source, started_at, finished_at, ok, new, updated, dropped, auto_allocated, error)
                VALUES (?, ?, ?, 1, ?, ?, ?, ?, NULL)
                """, arguments: [source, startedAt, now, session.counts.new, session.counts.updated,
                                 session.counts.dropped, session.counts.autoAllocated])
            try Self.bumpChangeCounter(db)
            return session.counts
        }
    }

    /// Records a failed pass: only its `ingest_runs` row, with the one-line reason.
    public func recordIngestFailure(source: String, startedAt: Instant, finishedAt: Instant, error: String) async throws {
        _ = try await write { db in
            try db.execute(sql: """
                INSERT INTO ingest_runs (source, started_at, finished_at, ok, error) VALUES (?, ?, ?, 0, ?)
                """, arguments: [source, startedAt, finishedAt, error])
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
            guard let asset = try Asset.filter(Column("source") == source && Column("kind") == kind).fetchOne(db) else { return [] }
            return try String.fetchSet(db, sql: "SELECT txid FROM transactions WHERE asset_id = ? AND status = 'confirmed'",
                                       arguments: [asset.id!])
        }
    }
}
