import Crypto
import Foundation
import GRDB

/// The SHA-256 digest of a completed month as it was stored: its frozen goals, contributions
/// and rates, its label, its completion time and the start of its record. Written with the
/// completed execution, in the same transaction; `walletwatch check` computes it again and
/// reports a month whose figures changed since (SPEC.md section 20: completed months unchanged).
///
/// The digest covers the stored values exactly as SQLite holds them, each with its type and
/// length, so no two different rows can encode alike and no re-encoding can hide a change.
enum CompletedMonthDigest {
    /// What the digest covers, one row per completed month.
    static let rowsSQL = """
        SELECT c.record_id, c.month_label, c.completed_at, c.goals, c.contributions, c.rates, r.started_at
        FROM completed_executions c LEFT JOIN execution_records r ON r.id = c.record_id
        """

    /// The digest of one row of ``rowsSQL``, as lower-case hex.
    static func digest(of row: Row) -> String {
        var bytes = Data("walletwatch completed month, version 1\n".utf8)
        for value in row.databaseValues {
            switch value.storage {
            case .null:
                bytes.append(contentsOf: Array("n;".utf8))
            case .int64(let number):
                bytes.append(contentsOf: Array("i\(number);".utf8))
            case .double(let number):
                bytes.append(contentsOf: Array("d\(number.bitPattern);".utf8))
            case .string(let text):
                let utf8 = Array(text.utf8)
                bytes.append(contentsOf: Array("s\(utf8.count):".utf8) + utf8 + Array(";".utf8))
            case .blob(let data):
                bytes.append(contentsOf: Array("b\(data.count):".utf8) + Array(data) + Array(";".utf8))
            }
        }
        return SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// Computes and stores the digest of the completed execution of `recordID`.
    static func store(_ db: Database, recordID: Int64) throws {
        guard let row = try Row.fetchOne(db, sql: rowsSQL + " WHERE c.record_id = ?", arguments: [recordID]) else { return }
        try db.execute(sql: "INSERT INTO completed_execution_digests (record_id, digest) VALUES (?, ?)",
                       arguments: [recordID, digest(of: row)])
    }

    /// The migration that adds the digests: the table, and the digest of every month completed
    /// before it, computed from the rows as they are.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE completed_execution_digests (
                record_id INTEGER PRIMARY KEY NOT NULL REFERENCES completed_executions(record_id) ON DELETE CASCADE,
                digest TEXT NOT NULL
            );
            CREATE TRIGGER completed_execution_digests_immutable BEFORE UPDATE ON completed_execution_digests
            BEGIN
                SELECT RAISE(ABORT, 'the digest of a completed month is immutable');
            END;
            """)
        for recordID in try Int64.fetchAll(db, sql: "SELECT record_id FROM completed_executions ORDER BY record_id") {
            try store(db, recordID: recordID)
        }
    }
}
