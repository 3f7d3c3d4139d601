import GRDB
import WalletWatchCore

extension AppDatabase {
    /// How many failed passes in a row make a source `failing` (SPEC.md section 18).
    public static let failingAfter = 3

    /// Counts a failed pass of `source`; the third in a row writes `source.failing` (once, until
    /// the source recovers). Runs in the transaction that records the failed run.
    static func recordPassFailed(source: String, error: String, now: Instant, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO source_failures (source, consecutive, last_error) VALUES (?, 1, ?)
            ON CONFLICT(source) DO UPDATE SET consecutive = consecutive + 1, last_error = excluded.last_error
            """, arguments: [source, error])
        let row = try Row.fetchOne(db, sql: "SELECT consecutive, failing_notified FROM source_failures WHERE source = ?", arguments: [source])
        guard let row, (row[0] as Int) >= failingAfter, !(row[1] as Bool) else { return }
        try db.execute(sql: "UPDATE source_failures SET failing_notified = 1 WHERE source = ?", arguments: [source])
        try enqueue(NotificationEvent(.sourceFailing, at: now, data: .object(["source": .string(source), "error": .string(error)])), in: db)
    }

    /// Ends the source's run of failures after a pass that succeeded; a source that was
    /// announced failing is announced recovered. Runs in the pass's publication.
    static func recordPassSucceeded(source: String, now: Instant, in db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT failing_notified, last_error FROM source_failures WHERE source = ?",
                                         arguments: [source]) else { return }
        try db.execute(sql: "DELETE FROM source_failures WHERE source = ?", arguments: [source])
        guard row[0] as Bool else { return }
        // The error is the one the source recovered from.
        try enqueue(NotificationEvent(.sourceRecovered, at: now, data: .object([
            "source": .string(source), "error": .string(row[1] as String?),
        ])), in: db)
    }
}
