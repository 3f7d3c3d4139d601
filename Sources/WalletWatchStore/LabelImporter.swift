import Foundation
import GRDB
import WalletWatchCore

/// Writes imported labels (txid -> tag names) inside the one transaction of
/// ``AppDatabase/importLabels(now:_:)``, in memory that does not grow with the file.
///
/// Each label is first appended to a temporary table as it is read (appending is cheap at any
/// size); ``finish()`` then writes them all to `tag_assignments` in one statement, sorted by
/// txid. Written one by one in the file's order, a few million labels would each land at a
/// random place in the table's indexes (txids are random), and a 200 MB file spent most of its
/// time reading and writing index pages that no cache could hold; sorted, each index is filled
/// front to back. SQLite sorts on disk past its cache, so memory stays bounded.
///
/// Tags are found by their key (``Name/key(_:)``, case-insensitive in every script, which
/// SQLite's NOCASE is not) in another temporary table, filled from `tags` once, so that a file
/// naming millions of tags holds none of them in memory but the last few thousand. The
/// temporary tables live as long as the transaction.
public struct LabelImporter: ~Copyable {
    private let db: Database
    private let now: Instant
    private let stageLabel: PreparedStatement
    private let stageTxid: PreparedStatement
    private let findTag: PreparedStatement
    /// The tags looked up last, by key: most files use a few tags on many lines.
    private var recentTags: [String: (id: String, active: Bool)] = [:]
    private var result = LabelImportResult()

    /// At most this many tags are kept in memory.
    static let recentTagLimit = 4_096
    /// At most this many created tags are named in the result; the rest are counted.
    public static let namedCreatedTagLimit = 1_000

    init(_ db: Database, now: Instant) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE label_import_tags (key TEXT PRIMARY KEY NOT NULL, id TEXT NOT NULL, active INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TEMP TABLE label_import_labels (txid TEXT NOT NULL, tag_id TEXT NOT NULL);
            CREATE TEMP TABLE label_import_txids (txid TEXT NOT NULL);
            """)
        let remember = try PreparedStatement(db, "INSERT OR IGNORE INTO temp.label_import_tags (key, id, active) VALUES (?, ?, ?)")
        let tags = try Row.fetchCursor(db, sql: "SELECT id, name, is_active FROM main.tags")
        while let row = try tags.next() {
            remember.bind(1, Name.key(row["name"]))
            remember.bind(2, row["id"] as String)
            remember.bind(3, row["is_active"] as Int64)
            try remember.execute()
        }
        // Every stored property at once: a noncopyable value cannot be left half-made by a throw.
        (self.db, self.now, stageLabel, stageTxid, findTag) = (
            db, now, try PreparedStatement(db, "INSERT INTO temp.label_import_labels (txid, tag_id) VALUES (?, ?)"),
            try PreparedStatement(db, "INSERT INTO temp.label_import_txids (txid) VALUES (?)"),
            try PreparedStatement(db, "SELECT id, active FROM temp.label_import_tags WHERE key = ?"))
    }

    /// Takes in `tags` for `txid`: missing tags are created now, a deactivated tag is skipped
    /// and counted; the assignments are written by ``finish()``.
    public mutating func add(txid: String, tags: [String]) throws {
        stageTxid.bind(1, txid)
        try stageTxid.execute()
        for name in tags {
            let tag = try self.tag(named: name)
            guard tag.active else {
                result.inactiveSkipped += 1
                continue
            }
            stageLabel.bind(1, txid)
            stageLabel.bind(2, tag.id)
            try stageLabel.execute()
        }
    }

    /// The tag called `name` (by its key), created (active, no colour) when missing.
    private mutating func tag(named name: String) throws -> (id: String, active: Bool) {
        let key = Name.key(name)
        if let tag = recentTags[key] { return tag }
        findTag.bind(1, key)
        let found = try findTag.first { row -> (id: String, active: Bool) in (row.text(0) ?? "", row.int64(1) != 0) }
        let tag: (id: String, active: Bool)
        if let found {
            tag = found
        } else {
            let created = Tag(name: name, createdAt: now)
            try created.insert(db)
            tag = (created.id.uuidString.lowercased(), true)
            try db.execute(sql: "INSERT INTO temp.label_import_tags (key, id, active) VALUES (?, ?, 1)", arguments: [key, tag.id])
            result.createdTagCount += 1
            if result.createdTags.count < Self.namedCreatedTagLimit { result.createdTags.append(name) }
        }
        if recentTags.count >= Self.recentTagLimit { recentTags.removeAll(keepingCapacity: true) }
        recentTags[key] = tag
        return tag
    }

    /// Writes the assignments taken in that are not there yet, sorted by txid, each with a new
    /// id (``AssignmentIDs``, counting up in the same order); counts them, those whose txid is
    /// not ingested yet, and the txids the file labelled; drops the temporary tables.
    consuming func finish() throws -> LabelImportResult {
        let (db, now) = (self.db, self.now)
        var result = self.result
        // The statements on the temporary tables go before the tables.
        _ = consume self
        result.waiting = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM (SELECT DISTINCT txid, tag_id FROM temp.label_import_labels) l
            WHERE NOT EXISTS (SELECT 1 FROM main.tag_assignments a WHERE a.tag_id = l.tag_id AND a.txid = l.txid)
              AND NOT EXISTS (SELECT 1 FROM main.transactions t WHERE t.txid = l.txid)
            """) ?? 0
        let ids = AssignmentIDs(now: now)
        try db.execute(sql: """
            INSERT INTO main.tag_assignments (id, tag_id, txid, assigned_at)
            SELECT \(ids.sqlExpression(ofRowNumber: "n")), tag_id, txid, ?
            FROM (SELECT txid, tag_id, row_number() OVER (ORDER BY txid, tag_id) AS n FROM temp.label_import_labels)
            WHERE true ORDER BY n
            ON CONFLICT (tag_id, txid) DO NOTHING
            """, arguments: [now])
        result.assigned = db.changesCount
        result.transactions = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT txid) FROM temp.label_import_txids") ?? 0
        try db.execute(sql: "DROP TABLE temp.label_import_tags; DROP TABLE temp.label_import_labels; DROP TABLE temp.label_import_txids")
        return result
    }
}

/// Ids for the assignments an import writes: version-7 UUIDs (the import's time in
/// milliseconds, then random bits), lower case, counting up from a random start, so that rows
/// written in order append to the end of `tag_assignments`' primary key. They are made by SQL
/// from each row's number: Foundation's `UUID()` also opens and reads `/dev/urandom` for every
/// one. 62 random bits for the start: two imports in the same millisecond never meet.
struct AssignmentIDs {
    /// The first three groups and the dash after them (`0195f0a1-2b3c-7def-`).
    let prefix: String
    /// Where the last 62 bits start counting.
    let start: Int64

    init(now: Instant) {
        var system = SystemRandomNumberGenerator()
        let milliseconds = UInt64(truncatingIfNeeded: now.millisecondsSinceEpoch) & 0xFFFF_FFFF_FFFF
        let randomA = system.next() & 0x0FFF
        let hex = { (value: UInt64, digits: Int) in
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        prefix = "\(hex(milliseconds >> 16, 8))-\(hex(milliseconds & 0xFFFF, 4))-7\(hex(randomA, 3))-"
        // Below 2^61: adding a row number never overflows SQLite's signed 64-bit integers.
        start = Int64(system.next() & 0x1FFF_FFFF_FFFF_FFFF)
    }

    /// The SQL that makes the id of the row numbered by the column `column`: the variant
    /// (`10`) and 14 bits of the count, then its last 48 bits.
    func sqlExpression(ofRowNumber column: String) -> String {
        "'\(prefix)' || printf('%04x-%012x', 32768 | (((\(start) + \(column)) >> 48) & 16383), (\(start) + \(column)) & 281474976710655)"
    }
}
