import GRDB
import WalletWatchCore

/// One source's pass over its ledger (SPEC.md section 5), written without holding SQLite's
/// write lock while anything else happens.
///
/// The caller has fetched and decoded what the source reports before the pass begins (see
/// ``AppDatabase/claimPass(source:now:owner:)``, which makes the pass the only one of its
/// source in every process). ``record(_:in:)`` compares each batch with what is stored through
/// a read, and keeps only the changes; once enough have gathered they are staged in one short
/// write, invisible to readers (Schema.version4). ``publish(startedAt:_:)`` then writes the
/// rest, applies Rule 1, records the run and makes the whole pass visible, in one short
/// transaction. A pass that fails is given up with ``abandon()``; one whose process dies is
/// taken over by the next pass of its source. Either way readers only ever see the database as
/// it was before the pass or as it is after it.
public struct LedgerPass: Sendable {
    let database: AppDatabase
    /// The pass's row in `ingest_passes`.
    let id: Int64
    public let source: String
    let owner: PassOwner
    /// The time of the pass: `first_seen_at` and `last_updated` of what it writes.
    public let now: Instant
    /// Changes gathered before they are staged: enough for a write of a few tens of
    /// milliseconds, few enough to keep memory small.
    var stageThreshold = 4_096

    private var assets: [PassAsset: PassAssetState] = [:]
    private var inserts: [PendingInsert] = []
    private var updates: [PendingUpdate] = []
    private var counts = IngestCounts()
    private var newlyConfirmed: [NewlyConfirmed] = []
    /// The transaction events this pass will write when it publishes (an asset's first pass,
    /// which stores its history, announces no `transaction.new`: SPEC.md section 23).
    private var notices: [TransactionNotice] = []
    /// The staging write in progress: it runs while the caller decodes and compares the next
    /// batch, and is awaited before the next one starts (one writer, in order).
    private var staging: Task<StagingOutcome, any Error>?

    init(database: AppDatabase, id: Int64, source: String, owner: PassOwner, now: Instant) {
        self.database = database
        self.id = id
        self.source = source
        self.owner = owner
        self.now = now
    }

    /// The source's asset of `kind` in `currency`, which the config calls `name` (created when
    /// the pass publishes, or hidden until then if the pass stages before; renamed when the
    /// config renamed it). A source has one asset per kind and currency: barkd's Ark and
    /// on-chain wallets in BTC, an EVM source's coin and each of its tokens.
    public mutating func asset(_ kind: AssetKind, currency: Currency = .btc, named name: String) async throws -> PassAsset {
        let key = PassAsset(kind: kind, currency: currency)
        if assets[key] == nil {
            let source = source
            assets[key] = try await database.read { db -> PassAssetState in
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM asset_rows WHERE source = ? AND kind = ? AND currency = ?",
                                                  arguments: [source, kind, currency]) else {
                    return PassAssetState(key: key, name: name, id: nil, hadRows: false, tracksRule1: false, announces: false)
                }
                return PassAssetState(
                    key: key, name: name, id: id,
                    hadRows: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ledger WHERE asset_id = ?)", arguments: [id]) ?? false,
                    tracksRule1: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM asset_allocations WHERE asset_id = ?)",
                                                   arguments: [id]) ?? false,
                    announces: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ingest_runs WHERE source = ? AND ok = 1)",
                                                 arguments: [source]) ?? false)
            }
        }
        assets[key]?.name = name
        return key
    }

    /// Compares `transactions` (one batch of what the source reports for `asset`) with what is
    /// stored, and keeps what changed: new txids to insert, changed rows to update in place.
    /// Unchanged rows are not written. May be called with successive batches of one report.
    public mutating func record(_ transactions: [ObservedTransaction], in asset: PassAsset) async throws {
        guard var state = assets[asset] else { preconditionFailure("record(_:in:) before asset(_:named:)") }
        try await state.loadPending(database)
        let stored: [StoredTransaction?]
        if let assetID = state.id, state.hadRows {
            stored = try await database.read { db in
                let statements = LedgerStatements(db)
                return try transactions.map { try statements.lookup(assetID: assetID, txid: $0.txid) }
            }
        } else {
            stored = Array(repeating: nil, count: transactions.count)
        }
        for (observed, row) in zip(transactions, stored) {
            if state.hadRows, !state.seen.insert(observed.txid.hashValue).inserted,
               try await isRepeat(observed, in: asset, assetID: state.id) {
                continue
            }
            if state.pendingNotReported?.isEmpty == false { state.pendingNotReported?.remove(observed.txid) }
            guard let row else {
                inserts.append(PendingInsert(asset: asset, observed: observed))
                if state.announces { notices.append(TransactionNotice(asset: asset, event: .transactionNew, txid: observed.txid)) }
                continue
            }
            guard let change = row.change(to: observed) else { continue }
            if row.status != observed.status.rawValue, observed.status != .pending {
                notices.append(TransactionNotice(asset: asset, event: observed.status == .confirmed ? .transactionConfirmed : .transactionFailed,
                                                 txid: observed.txid))
            }
            updates.append(PendingUpdate(asset: asset, change: change))
            counts.updated += 1
            if change.becameConfirmed, state.tracksRule1, let assetID = state.id {
                newlyConfirmed.append(NewlyConfirmed(assetID: assetID, txid: observed.txid, amount: observed.amount, date: change.date))
            }
        }
        assets[asset] = state
        if inserts.count + updates.count >= stageThreshold { try await stage() }
    }

    /// Whether `observed` repeats a transaction already recorded in this pass with the same
    /// contents (then it counts once); throws ``RepeatedTransaction`` when the contents differ.
    /// False when its txid only shares a hash with an earlier one. Rare, so it may wait for the
    /// staging write and read what it needs.
    private mutating func isRepeat(_ observed: ObservedTransaction, in asset: PassAsset, assetID: Int64?) async throws -> Bool {
        let source = source
        if let first = inserts.last(where: { $0.asset == asset && $0.observed.txid == observed.txid })?.observed
            ?? updates.last(where: { $0.asset == asset && $0.change.observed.txid == observed.txid })?.change.observed {
            guard first == observed else { throw RepeatedTransaction(source: source, first: first, then: observed) }
            return true
        }
        try await finishStaging()
        guard let assetID else { return false }
        let pass = id
        // Staged by this pass (an update waits in staged_updates), or as stored before it (its
        // first copy changed nothing).
        let first = try await database.read { db in
            let statements = LedgerStatements(db)
            return try statements.stagedUpdate(pass: pass, assetID: assetID, txid: observed.txid)
                ?? statements.lookup(assetID: assetID, txid: observed.txid)
        }
        guard let first else { return false }
        guard first.change(to: observed) == nil else { throw RepeatedTransaction(source: source, stored: first, then: observed) }
        return true
    }

    /// The source reported all of `asset`'s unconfirmed transactions in this pass (sources
    /// always do): those it no longer reports are marked failed when the pass publishes.
    public mutating func markVanished(in asset: PassAsset) async throws {
        try await assets[asset]?.loadPending(database)
        assets[asset]?.marksVanished = true
    }

    /// Starts writing the gathered changes in one short transaction, invisible to readers until
    /// the pass publishes, once the previous such write is done. The caller goes on meanwhile.
    private mutating func stage() async throws {
        try await finishStaging()
        let (database, pass, owner, now, source) = (database, id, owner, now, source)
        let (inserts, updates, assets) = (inserts, updates, assets)
        self.inserts.removeAll(keepingCapacity: true)
        self.updates.removeAll(keepingCapacity: true)
        staging = Task { try await database.write { db -> StagingOutcome in
            try AppDatabase.ensureOwned(db, pass: pass, owner: owner)
            var outcome = StagingOutcome()
            var ids = assets.compactMapValues(\.id)
            for asset in assets.keys where ids[asset] == nil && inserts.contains(where: { $0.asset == asset }) {
                ids[asset] = try assets[asset]!.create(db, source: source, now: now, pass: pass)
                outcome.created[asset] = ids[asset]
            }
            let statements = LedgerStatements(db)
            // A batch is nearly always one asset's: its id and Rule 1 flag are looked up when
            // the asset changes, not hashed again for every row.
            var current: (asset: PassAsset, id: Int64, tracksRule1: Bool)?
            for insert in inserts {
                if current?.asset != insert.asset {
                    current = (insert.asset, ids[insert.asset]!, assets[insert.asset]!.tracksRule1)
                }
                let (_, assetID, tracksRule1) = current!
                guard try statements.insert(insert.observed, assetID: assetID, now: now, pass: pass) else {
                    try statements.ensureRepeatMatches(insert.observed, assetID: assetID, source: source)
                    continue
                }
                outcome.record(insert, assetID: assetID, tracksRule1: tracksRule1, now: now)
            }
            for update in updates {
                try statements.stageUpdate(update.change, assetID: ids[update.asset]!, pass: pass)
            }
            return outcome
        } }
    }

    /// Waits for the staging write in progress, and takes in what it did.
    mutating func finishStaging() async throws {
        guard let task = staging else { return }
        staging = nil
        let outcome = try await task.value
        for (asset, id) in outcome.created { assets[asset]?.id = id }
        counts.new += outcome.new
        newlyConfirmed += outcome.newlyConfirmed
    }

    /// Writes what is left, applies the staged changes, marks vanished transactions failed,
    /// lets `body` store the rest of the source's report (balances, VTXOs...), applies Rule 1 to
    /// what became confirmed, records the run in `ingest_runs` and moves the change counter: one
    /// transaction that makes the whole pass visible at once.
    public consuming func publish(startedAt: Instant, _ body: @escaping @Sendable (inout PassPublication) throws -> Void) async throws -> IngestCounts {
        try await finishStaging()
        let (pass, owner, now, source) = (id, owner, now, source)
        let (inserts, updates, assets, counts, newlyConfirmed) = (inserts, updates, assets, counts, newlyConfirmed)
        let notices = notices
        return try await database.write { db in
            // Deleting the claim first makes everything staged visible inside this transaction.
            try db.execute(sql: "DELETE FROM ingest_passes WHERE id = ? AND owner_pid = ? AND owner_started = ?",
                           arguments: [pass, owner.pid, owner.started])
            guard db.changesCount == 1 else { throw StoreError.database("the ingest pass was taken over by another process; run it again") }
            var counts = counts
            var newlyConfirmed = newlyConfirmed
            var ids: [PassAsset: Int64] = [:]
            for (asset, state) in assets {
                ids[asset] = try state.id.map { try state.rename(db, id: $0) } ?? state.create(db, source: source, now: now, pass: nil)
            }
            let statements = LedgerStatements(db)
            var published = StagingOutcome()
            for insert in inserts {
                let assetID = ids[insert.asset]!
                guard try statements.insert(insert.observed, assetID: assetID, now: now, pass: nil) else {
                    try statements.ensureRepeatMatches(insert.observed, assetID: assetID, source: source)
                    continue
                }
                published.record(insert, assetID: assetID, tracksRule1: assets[insert.asset]!.tracksRule1, now: now)
            }
            counts.new += published.new
            newlyConfirmed += published.newlyConfirmed
            try statements.applyStagedUpdates(pass: pass, now: now)
            for update in updates { try statements.update(update.change, assetID: ids[update.asset]!, now: now) }
            var notices = notices
            for (asset, state) in assets where state.marksVanished {
                for txid in (state.pendingNotReported ?? []).sorted() {
                    try db.execute(sql: "UPDATE ledger SET status = 'failed', last_updated = ? WHERE txid = ? AND asset_id = ?",
                                   arguments: [now, txid, ids[asset]!])
                    counts.dropped += 1
                    notices.append(TransactionNotice(asset: asset, event: .transactionFailed, txid: txid))
                }
            }
            var publication = PassPublication(db: db, source: source, now: now, assetIDs: ids)
            try body(&publication)
            // The pass's events commit with it (SPEC.md section 18): what it found, then what
            // Rule 1 and 1b allocated, then the goals that reached their targets.
            try AppDatabase.announce(notices, assets: ids, names: assets.mapValues(\.name), now: now, in: db)
            let historyBefore = try AppDatabase.lastHistoryID(db)
            counts.autoAllocated = try AppDatabase.applyRule1(db, to: newlyConfirmed, now: now)
            try AppDatabase.announceAutoAllocations(after: historyBefore, now: now, in: db)
            if counts.new + counts.updated + counts.dropped + counts.autoAllocated > 0 {
                try AppDatabase.announceReachedGoals(now: now, in: db)
            }
            try AppDatabase.recordPassSucceeded(source: source, now: now, in: db)
            try db.execute(sql: """
                INSERT INTO ingest_runs (source, started_at, finished_at, ok, new, updated, dropped, auto_allocated, error)
                VALUES (?, ?, ?, 1, ?, ?, ?, ?, NULL)
                """, arguments: [source, startedAt, now, counts.new, counts.updated, counts.dropped, counts.autoAllocated])
            try AppDatabase.bumpChangeCounter(db)
            return counts
        }
    }

    /// Gives the pass up after a failure: nothing it staged ever becomes visible, and its
    /// source is free for the next pass. When even that fails (the disk is full, say), the pass
    /// stays invisible and the next pass of its source takes it over.
    public consuming func abandon() async throws {
        _ = await staging?.result
        try await database.abandon(pass: id)
    }
}

/// One of the source's assets within a pass: a source has at most one asset of each kind and
/// currency.
public struct PassAsset: Sendable, Hashable {
    public let kind: AssetKind
    public let currency: Currency
}

/// A transaction that became confirmed in the current pass (the input of Rule 1).
struct NewlyConfirmed: Sendable {
    let assetID: Int64
    let txid: String
    let amount: Int128
    let date: Instant
}

extension NewlyConfirmed {
    /// A transaction stored for the first time already confirmed.
    init(_ insert: PendingInsert, assetID: Int64, now: Instant) {
        let observed = insert.observed
        self.init(assetID: assetID, txid: observed.txid, amount: observed.amount, date: observed.date ?? observed.estimatedDate ?? now)
    }
}

/// What a pass knows about one asset of its source.
struct PassAssetState: Sendable {
    let key: PassAsset
    /// The name the config gives it.
    var name: String
    /// Nil until the asset exists (a source's first pass creates it).
    var id: Int64?
    /// False for an asset without any transaction before the pass: nothing needs looking up
    /// (a first ingest is inserts only).
    let hadRows: Bool
    /// Whether what the pass finds is news (SPEC.md section 23): false for the asset's first
    /// pass, the one that creates it, or a source's first successful pass, which store the
    /// history as it is; true afterwards, also while the asset has no transaction yet (a wallet
    /// watched while empty announces its first deposit).
    let announces: Bool
    /// True when the asset has allocations, so that Rule 1 may apply to it; otherwise the
    /// newly confirmed transactions need not be remembered at all.
    let tracksRule1: Bool
    /// Stored unconfirmed txids the source has not reported (yet) in this pass; read when the
    /// pass first records or marks vanished rows (a pass that finds nothing changed never does).
    var pendingNotReported: Set<String>?
    var marksVanished = false
    /// Hashes of the txids recorded so far in this pass, kept on the lookup path only (an asset
    /// with rows): a txid listed twice must be noticed even when its first copy changed nothing.
    /// On the insert-only path the ledger's unique key notices it instead, for free.
    var seen: Set<Int> = []

    init(key: PassAsset, name: String, id: Int64?, hadRows: Bool, tracksRule1: Bool, announces: Bool) {
        self.key = key
        self.name = name
        self.id = id
        self.hadRows = hadRows
        self.tracksRule1 = tracksRule1
        self.announces = announces
    }

    /// Reads the asset's stored unconfirmed txids, once.
    mutating func loadPending(_ database: AppDatabase) async throws {
        guard pendingNotReported == nil else { return }
        guard let id, hadRows else {
            pendingNotReported = []
            return
        }
        pendingNotReported = try await database.read { db in
            try String.fetchSet(db, sql: "SELECT txid FROM ledger WHERE asset_id = ? AND status = 'pending'", arguments: [id])
        }
    }

    /// Creates the asset, hidden until `pass` publishes, or visible when `pass` is nil.
    func create(_ db: Database, source: String, now: Instant, pass: Int64?) throws -> Int64 {
        do {
            try AppDatabase.ensureNameIsFree(db, table: AssetRow.databaseTableName, name: name, what: "asset")
        } catch {
            throw Refusal("the asset name '\(name)' of source '\(source)' is already used by another asset; give the source another asset name in the config")
        }
        var asset = Asset(name: name, currency: key.currency, kind: key.kind, source: source, createdAt: now)
        try asset.insert(db, pass: pass)
        return asset.id!
    }

    /// Gives the existing asset `id` the config's name when that changed.
    func rename(_ db: Database, id: Int64) throws -> Int64 {
        try AppDatabase.renameSourceAsset(db, id: id, to: name)
        return id
    }
}

/// A new txid to insert.
struct PendingInsert: Sendable {
    let asset: PassAsset
    let observed: ObservedTransaction
}

/// A changed row to update.
struct PendingUpdate: Sendable {
    let asset: PassAsset
    let change: TransactionChange
}

/// What one staging write did.
private struct StagingOutcome: Sendable {
    var created: [PassAsset: Int64] = [:]
    var new = 0
    var newlyConfirmed: [NewlyConfirmed] = []

    mutating func record(_ insert: PendingInsert, assetID: Int64, tracksRule1: Bool, now: Instant) {
        new += 1
        if insert.observed.status == .confirmed && tracksRule1 {
            newlyConfirmed.append(NewlyConfirmed(insert, assetID: assetID, now: now))
        }
    }
}
