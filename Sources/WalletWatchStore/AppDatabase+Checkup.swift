import GRDB
import WalletWatchCore

/// What `walletwatch check` reads, in one snapshot: the findings SQL can tell, and each manual
/// asset's confirmed entries for the ledger rule that Core decides.
public struct CheckupData: Sendable {
    /// Problems found by SQLite's checks and by the invariants written in SQL.
    public let findings: [CheckFinding]
    /// Every manual asset with its confirmed entries.
    public let manualLedgers: [(asset: Asset, entries: [LedgerEntry])]
}

extension AppDatabase {
    /// Runs SQLite's `integrity_check` and `foreign_key_check` and walletwatch's invariants
    /// (SPEC.md section 20) over one consistent snapshot: the schema objects that guard the data
    /// are all there, each pair's latest allocation-history row equals its current allocation,
    /// Rule 1 allocated each transaction at most once, every completed month still has the
    /// digest it was stored with, and no ingest pass was left behind by a process that is gone.
    public func checkup() throws -> CheckupData {
        let expected = try Self.expectedSchema()
        // Outside a transaction: a file damaged enough to stop the integrity check leaves its
        // statement failed, which would fail the end of a transaction around it too.
        let integrity: [CheckFinding]
        do {
            integrity = try writer.unsafeRead { db in try Self.integrityFindings(db) }
        } catch let error as DatabaseError {
            integrity = [CheckFinding(check: "integrity", detail: "the check stopped early: \(error.message ?? "SQLite error \(error.resultCode.rawValue)")")]
        }
        return try read { db in
            var findings = integrity
            findings += try Self.running("foreign_keys", db) { try Self.foreignKeyFindings(db) }
            findings += try Self.running("schema", db) { try Self.schemaFindings(db, expected: expected) }
            findings += try Self.running("allocation_history", db) { try Self.allocationFindings(db) }
            findings += try Self.running("rule1_once", db) { try Self.rule1Findings(db) }
            findings += try Self.running("completed_months", db) { try Self.completedMonthFindings(db) }
            findings += try Self.running("ingest_passes", db) { try Self.abandonedPassFindings(db) }
            var ledgers: [(asset: Asset, entries: [LedgerEntry])] = []
            findings += try Self.running("manual_balance", db) {
                ledgers = try Asset.filter(Column("kind") == AssetKind.manual).order(Column("id")).fetchAll(db).map { asset in
                    (asset: asset, entries: try Self.ledgerEntries(db, assetID: asset.id!))
                }
                return []
            }
            return CheckupData(findings: findings, manualLedgers: ledgers)
        }
    }

    /// Runs one check; a damaged file that stops it (SQLite's "malformed") is that check's
    /// finding, so that the other checks still run and `check` reports instead of failing.
    private static func running(_ check: String, _ db: Database, _ body: () throws -> [CheckFinding]) throws -> [CheckFinding] {
        do {
            return try body()
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) {
            return [CheckFinding(check: check, detail: "the check could not run: \(error.message ?? "SQLite error \(error.resultCode.rawValue)")")]
        }
    }

    /// SQLite's findings, one a line; a damage bad enough to stop the check is a finding too.
    static func integrityFindings(_ db: Database) throws -> [CheckFinding] {
        var lines: [String] = []
        do {
            let cursor = try String.fetchCursor(db, sql: "PRAGMA integrity_check")
            while let line = try cursor.next() { lines.append(line) }
        } catch let error as DatabaseError {
            lines.append("the check stopped early: \(error.message ?? "SQLite error \(error.resultCode.rawValue)")")
        }
        // A row may hold several lines, under a header naming the schema ("*** in database main ***").
        return lines.flatMap { $0.split(separator: "\n").map(String.init) }
            .filter { $0 != "ok" && !$0.hasPrefix("*** in database") }
            .map { CheckFinding(check: "integrity", detail: $0) }
    }

    static func foreignKeyFindings(_ db: Database) throws -> [CheckFinding] {
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
            let table: String = row[0]
            let rowID: Int64? = row[1]
            let parent: String = row[2]
            // A table WITHOUT ROWID has no row number to name.
            let which = rowID.map { "\(table) row \($0)" } ?? "a row of \(table)"
            return CheckFinding(check: "foreign_keys", detail: "\(which) refers to a \(parent) row that does not exist")
        }
    }

    /// The tables, views, indexes and triggers a database of the current schema has (each trigger with
    /// its SQL), from an empty database migrated in memory.
    static func expectedSchema() throws -> [SchemaObject] {
        let queue = try DatabaseQueue(configuration: makeConfiguration())
        try migrator.migrate(queue)
        return try queue.read(schemaObjects)
    }

    struct SchemaObject: Hashable, Sendable {
        let type: String
        let name: String
        let sql: String?
    }

    static func schemaObjects(_ db: Database) throws -> [SchemaObject] {
        try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE type IN ('table', 'index', 'trigger', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY type, name
            """).map { SchemaObject(type: $0["type"], name: $0["name"], sql: $0["sql"]) }
    }

    /// A missing table, index or trigger, or a trigger whose SQL changed: the rules the database
    /// enforces by itself (append-only history, immutable months, one executing month) would no
    /// longer hold.
    static func schemaFindings(_ db: Database, expected: [SchemaObject]) throws -> [CheckFinding] {
        let present = Dictionary(try schemaObjects(db).map { ("\($0.type) \($0.name)", $0) }) { first, _ in first }
        return expected.compactMap { object in
            guard let found = present["\(object.type) \(object.name)"] else {
                return CheckFinding(check: "schema", detail: "the \(object.type) \(object.name) is missing")
            }
            if object.type == "trigger", normalized(found.sql) != normalized(object.sql) {
                return CheckFinding(check: "schema", detail: "the trigger \(object.name) differs from walletwatch's")
            }
            return nil
        }
    }

    private static func normalized(_ sql: String?) -> String {
        (sql ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Each (asset, goal) pair whose latest history row (ties: the latest written) is not its
    /// current target; a pair with no history has the target 0, and no current row means 0.
    static func allocationFindings(_ db: Database) throws -> [CheckFinding] {
        try Row.fetchAll(db, sql: """
            WITH pairs AS (
                SELECT asset_id, goal_id FROM allocation_history UNION SELECT asset_id, goal_id FROM asset_allocations
            ), compared AS (
                SELECT p.asset_id, p.goal_id,
                    (SELECT h.amount FROM allocation_history h WHERE h.asset_id = p.asset_id AND h.goal_id = p.goal_id
                     ORDER BY h.timestamp DESC, h.created_at DESC, h.id DESC LIMIT 1) AS latest,
                    (SELECT a.amount FROM asset_allocations a WHERE a.asset_id = p.asset_id AND a.goal_id = p.goal_id) AS current
                FROM pairs p
            )
            SELECT c.*, s.name AS asset, s.currency, g.name AS goal FROM compared c
            LEFT JOIN assets s ON s.id = c.asset_id LEFT JOIN goals g ON g.id = c.goal_id
            WHERE IFNULL(c.latest, 0) != IFNULL(c.current, 0)
            ORDER BY c.asset_id, c.goal_id
            """).map { row in
            let money = { (amount: Int128?) -> String in
                guard let amount else { return "nothing" }
                guard let code: String = row["currency"], let currency = try? Currency(code: code) else { return "\(amount)" }
                return Money(minorUnits: amount, currency: currency).description
            }
            let latest = try row.optionalAmount("latest")
            let current = try row.optionalAmount("current")
            return CheckFinding(check: "allocation_history", detail: """
                asset \(named(row["asset"], id: row["asset_id"])) for goal \(named(row["goal"], id: row["goal_id"])): \
                the latest history row says \(money(latest)), the current allocation is \(money(current))
                """)
        }
    }

    /// Rule 1 applied twice to one transaction, or applied without the transaction knowing it
    /// (then a later ingest could apply it again).
    static func rule1Findings(_ db: Database) throws -> [CheckFinding] {
        let twice = try Row.fetchAll(db, sql: """
            SELECT h.asset_id, h.txid, COUNT(*) AS times, s.name AS asset FROM allocation_history h
            LEFT JOIN assets s ON s.id = h.asset_id
            WHERE h.reason = 'rule1' GROUP BY h.asset_id, h.txid HAVING COUNT(*) > 1 ORDER BY h.asset_id, h.txid
            """).map { row in
            CheckFinding(check: "rule1_once", detail: """
                transaction \(row["txid"] as String? ?? "NULL") of asset \(named(row["asset"], id: row["asset_id"])) \
                was allocated by Rule 1 \(row["times"] as Int64) times
                """)
        }
        let unmarked = try Row.fetchAll(db, sql: """
            SELECT DISTINCT h.asset_id, h.txid, s.name AS asset FROM allocation_history h
            JOIN transactions t ON t.asset_id = h.asset_id AND t.txid = h.txid
            LEFT JOIN assets s ON s.id = h.asset_id
            WHERE h.reason = 'rule1' AND t.rule1_applied_at IS NULL ORDER BY h.asset_id, h.txid
            """).map { row in
            CheckFinding(check: "rule1_once", detail: """
                transaction \(row["txid"] as String) of asset \(named(row["asset"], id: row["asset_id"])) was allocated by \
                Rule 1 but is not marked as allocated, so Rule 1 could apply it again
                """)
        }
        return twice + unmarked
    }

    /// Each completed month whose stored digest is missing or no longer matches its rows.
    static func completedMonthFindings(_ db: Database) throws -> [CheckFinding] {
        let stored = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT record_id, digest FROM completed_execution_digests").map {
            (try $0.decode(Int64.self, forColumn: "record_id"), try $0.decode(String.self, forColumn: "digest"))
        })
        return try Row.fetchAll(db, sql: CompletedMonthDigest.rowsSQL + " ORDER BY c.record_id").compactMap { row in
            let recordID: Int64 = row["record_id"]
            let month = (row["month_label"] as String?) ?? "record \(recordID)"
            guard let digest = stored[recordID] else {
                return CheckFinding(check: "completed_months", detail: "the completed month \(month) has no stored digest, so a change to it cannot be told")
            }
            guard digest == CompletedMonthDigest.digest(of: row) else {
                return CheckFinding(check: "completed_months", detail: """
                    the completed month \(month) changed after it was completed: its frozen goals, contributions, rates or times \
                    no longer match the digest stored with them
                    """)
            }
            return nil
        }
    }

    /// Ingest passes whose process is no longer running (killed, or the machine lost power in
    /// the middle of a pass), or that their process gave up and could not clean up (a full
    /// disk): what they staged stays invisible, so nothing is wrong in what readers see, but
    /// the rows take room until the next pass of that source removes them, and the finding says
    /// which command runs that pass. A pass of a running process (a daemon writing while a copy
    /// was taken) is no finding.
    static func abandonedPassFindings(_ db: Database) throws -> [CheckFinding] {
        try Row.fetchAll(db, sql: """
            SELECT p.id, p.source, p.owner_pid, p.owner_started, p.started_at,
                (SELECT COUNT(*) FROM ledger WHERE pass = p.id) + (SELECT COUNT(*) FROM staged_updates WHERE pass = p.id)
                    + (SELECT COUNT(*) FROM asset_rows WHERE pass = p.id) AS staged
            FROM ingest_passes p ORDER BY p.id
            """).compactMap { row in
            let owner = PassOwner(pid: row["owner_pid"], started: row["owner_started"])
            guard !owner.isAlive else { return nil }
            let source: String = row["source"]
            let startedAt: String = row["started_at"]
            let staged: Int64 = row["staged"]
            let by = owner == .nobody ? "was given up and" : "by \(owner), which is no longer running,"
            return CheckFinding(check: "ingest_passes", detail: """
                the ingest pass of source '\(source)' started at \(startedAt) \(by) left \(staged) staged row(s) that no reader sees; \
                the next ingest of that source removes them: run `walletwatch ingest --source \(ShellWord.quoted(source))`
                """)
        }
    }

    /// `'Cash'`, or `#7` when the row it names is gone.
    private static func named(_ name: String?, id: Int64?) -> String {
        name.map { "'\($0)'" } ?? "#\(id.map(String.init) ?? "?")"
    }
}
