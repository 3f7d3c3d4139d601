import GRDB
import WalletWatchCore

/// What a try at claiming a source for a pass found.
public enum PassClaim: Sendable {
    /// The source is this pass's until it publishes or gives up.
    case claimed(LedgerPass)
    /// Another live process runs a pass of the source; try again once it is done.
    case busy(owner: PassOwner, since: Instant)
}

extension AppDatabase {
    /// Claims `source` for one pass (Schema.version4), in one short transaction. A claim left by
    /// a process that no longer runs is taken over, and what that pass staged is removed first,
    /// so a pass always starts from what readers see.
    public func claimPass(source: String, now: Instant, owner: PassOwner = .current) async throws -> PassClaim {
        enum Outcome: Sendable { case new(Int64), adopted(Int64), busy(PassOwner, Instant) }
        let outcome = try await write { db -> Outcome in
            if let row = try Row.fetchOne(db, sql: "SELECT id, owner_pid, owner_started, started_at FROM ingest_passes WHERE source = ?",
                                          arguments: [source]) {
                let holder = PassOwner(pid: row["owner_pid"], started: row["owner_started"])
                let givenUp = holder == owner && abandonedPasses.contains(row["id"])
                if holder.isAlive && !givenUp { return .busy(holder, try row.decode(forColumn: "started_at")) }
                try db.execute(sql: "UPDATE ingest_passes SET owner_pid = ?, owner_started = ?, started_at = ? WHERE id = ?",
                               arguments: [owner.pid, owner.started, now, row["id"]])
                return .adopted(row["id"])
            }
            try db.execute(sql: "INSERT INTO ingest_passes (source, owner_pid, owner_started, started_at) VALUES (?, ?, ?, ?)",
                           arguments: [source, owner.pid, owner.started, now])
            return .new(db.lastInsertedRowID)
        }
        switch outcome {
        case .busy(let holder, let since):
            return .busy(owner: holder, since: since)
        case .adopted(let id):
            try await removeStaged(pass: id)
            abandonedPasses.remove(id)
            return .claimed(LedgerPass(database: self, id: id, source: source, owner: owner, now: now))
        case .new(let id):
            // SQLite may give a new row the id of a removed one: a pass of this process's that
            // another process took over, whose id must not make this new pass look given up.
            abandonedPasses.remove(id)
            return .claimed(LedgerPass(database: self, id: id, source: source, owner: owner, now: now))
        }
    }

    /// Claims `source` for one pass, refusing when another live process holds it (the ingest
    /// waits instead: see ``claimPass(source:now:owner:)``).
    public func beginPass(source: String, now: Instant) async throws -> LedgerPass {
        switch try await claimPass(source: source, now: now) {
        case .claimed(let pass): return pass
        case .busy(let owner, _): throw StoreError.database("a pass of source '\(source)' is running in \(owner)")
        }
    }

    /// Gives a pass up: first marks it ownerless (so that whatever happens next, its staged
    /// rows stay invisible and the next pass of its source takes it over), then removes what it
    /// staged and its claim. When even the first write fails (a full disk), the pass is noted in
    /// ``abandonedPasses``, so that the next pass of its source in this process takes it over
    /// too instead of waiting for it.
    func abandon(pass: Int64) async throws {
        do {
            try await write { db in
                try db.execute(sql: "UPDATE ingest_passes SET owner_pid = 0, owner_started = 0 WHERE id = ?", arguments: [pass])
            }
        } catch {
            abandonedPasses.insert(pass)
            throw error
        }
        try await removeStaged(pass: pass)
        try await write { db in try db.execute(sql: "DELETE FROM ingest_passes WHERE id = ?", arguments: [pass]) }
    }

    /// Removes everything `pass` staged, in short transactions, while its claim keeps it invisible.
    /// The rows are found by reads (in rowid order, from where the last chunk ended), so no
    /// write waits for a scan.
    func removeStaged(pass: Int64, chunk: Int = 5_000) async throws {
        var after: Int64 = 0
        while true {
            let start = after
            let rowids = try await read { db in
                try Int64.fetchAll(db, sql: "SELECT rowid FROM ledger WHERE rowid > ? AND pass = ? ORDER BY rowid LIMIT ?",
                                   arguments: [start, pass, chunk])
            }
            guard let last = rowids.last else { break }
            try await write { db in
                for rowid in rowids { try db.execute(sql: "DELETE FROM ledger WHERE rowid = ? AND pass = ?", arguments: [rowid, pass]) }
            }
            after = last
        }
        try await write { db in
            try db.execute(sql: "DELETE FROM staged_updates WHERE pass = ?", arguments: [pass])
            try db.execute(sql: "DELETE FROM asset_rows WHERE pass = ? AND NOT EXISTS (SELECT 1 FROM ledger WHERE asset_id = asset_rows.id)", arguments: [pass])
        }
    }

    /// Refuses to go on when `pass` is no longer this owner's: another process judged it dead
    /// and took it over (its process was stopped for long, say), so what it staged is gone.
    static func ensureOwned(_ db: Database, pass: Int64, owner: PassOwner) throws {
        let owned = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM ingest_passes WHERE id = ? AND owner_pid = ? AND owner_started = ?)
            """, arguments: [pass, owner.pid, owner.started]) ?? false
        guard owned else { throw StoreError.database("the ingest pass was taken over by another process; run it again") }
    }

    /// What the source sent last time for `part` (its digests and how many items it held),
    /// and whether its asset of `kind` has transactions now; nil when nothing was recorded.
    public func sourceDigest(source: String, part: String, kind: AssetKind) async throws -> StoredDigest? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT digest, head_digest, items FROM source_digests WHERE source = ? AND part = ?",
                                             arguments: [source, part]) else { return nil }
            // Not a count of the asset's rows: that walks its whole index (a fifth of a no-change
            // pass over 100,000 movements). Rows of a source's asset are never deleted (only
            // manual entries can be), so the history stored with this digest is still there
            // while its asset has rows; a hand edit of the database is what `ingest --full` is for.
            let hasTransactions = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM transactions WHERE asset_id = (SELECT id FROM assets WHERE source = ? AND kind = ?))
                """, arguments: [source, kind]) ?? false
            return StoredDigest(digest: BodyDigest(whole: row["digest"], head: row["head_digest"]), items: row["items"],
                                hasTransactions: hasTransactions)
        }
    }
}

/// The digest of a body, and of its first bytes (``BodyDigest/headBytes``), as text naming
/// its function (`xxh3:` and 16 hexadecimal digits; older versions stored `xxh64:` digests,
/// and before them a bare SHA-256).
public struct BodyDigest: Sendable, Hashable {
    /// How much of a body its head digest covers.
    public static let headBytes = 64 << 10

    public let whole: String
    public let head: String

    public init(whole: String, head: String) {
        self.whole = whole
        self.head = head
    }
}

/// What a source last sent for one part of its data.
public struct StoredDigest: Sendable, Equatable {
    public let digest: BodyDigest
    /// How many items (barkd movements) that body held.
    public let items: Int
    /// Whether the source's asset has any transaction now.
    public let hasTransactions: Bool

    /// True when `digest` is that body again and what it held is still stored (its asset was
    /// not replaced by an empty one).
    public func matches(_ digest: BodyDigest) -> Bool {
        digest == self.digest && (items == 0 || hasTransactions)
    }
}
