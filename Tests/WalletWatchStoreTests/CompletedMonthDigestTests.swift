import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Completed months: their digest")
struct CompletedMonthDigestTests {
    /// A database at v3 with a month completed before digests existed, then migrated.
    func upgraded(_ folder: TemporaryDirectory) throws -> AppDatabase {
        let queue = try DatabaseQueue(path: folder.file("old.sqlite"), configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrate(queue, upTo: "v3-ark-info-lifetime")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO execution_records (id, month_label, status, started_at, completed_at, can_undo_until, goal_ids)
                VALUES (1, '2026-10', 'closed', '2026-10-01T08:00:00.000Z', '2026-10-31T20:00:00.000Z', '2026-11-01T20:00:00.000Z', '[1]');
                INSERT INTO completed_executions (record_id, month_label, completed_at, goals, contributions, rates)
                VALUES (1, '2026-10', '2026-10-31T20:00:00.000Z', '[{"goalID":1}]', '[{"amount":55000}]', '{"displayCurrency":"USD","rates":[]}');
                """)
        }
        return try AppDatabase(queue)
    }

    @Test("the migration stores the digest of a month completed before it; check then finds nothing; the digest cannot be changed")
    func migration() throws {
        let folder = TemporaryDirectory()
        let database = try upgraded(folder)
        let (stored, expected) = try database.read { db in
            (try String.fetchOne(db, sql: "SELECT digest FROM completed_execution_digests WHERE record_id = 1"),
             CompletedMonthDigest.digest(of: try Row.fetchOne(db, sql: CompletedMonthDigest.rowsSQL)!))
        }
        #expect(stored == expected)
        #expect(expected.count == 64 && expected.allSatisfy(\.isHexDigit))
        #expect(try database.checkup().findings == [])
        #expect(throws: (any Error).self) {
            try database.write { db in try db.execute(sql: "UPDATE completed_execution_digests SET digest = 'x'") }
        }
    }

    @Test("any change to the frozen figures, the label or the times changes the digest; removing the month removes its digest")
    func sensitivity() throws {
        let folder = TemporaryDirectory()
        let database = try upgraded(folder)
        let changes = [
            "UPDATE completed_executions SET contributions = '[{\"amount\":55001}]'",
            "UPDATE completed_executions SET goals = '[{\"goalID\":2}]'",
            "UPDATE completed_executions SET rates = '{\"displayCurrency\":\"EUR\",\"rates\":[]}'",
            "UPDATE completed_executions SET completed_at = '2026-10-31T20:00:00.001Z'",
            "UPDATE completed_executions SET month_label = '2026-09'",
            "UPDATE execution_records SET started_at = '2026-10-01T08:00:01.000Z'",
        ]
        for change in changes {
            var seen: [CheckFinding] = []
            do {
                // GRDB rolls the transaction back when its closure throws.
                try database.writer.write { db in
                    try db.execute(sql: "DROP TRIGGER completed_executions_immutable")
                    try db.execute(sql: change)
                    throw Undo(findings: try AppDatabase.completedMonthFindings(db))
                }
            } catch let undo as Undo {
                seen = undo.findings
            }
            #expect(seen.map(\.check) == ["completed_months"], "\(change)")
            #expect(seen.first?.detail.contains("changed after it was completed") == true, "\(change)")
        }
        #expect(try database.checkup().findings == [], "every change above was rolled back")
        try database.write { db in try db.execute(sql: "DELETE FROM completed_executions WHERE record_id = 1") }
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM completed_execution_digests") } == 0)
    }

    /// Carries what a write saw out of it while rolling it back.
    struct Undo: Error {
        let findings: [CheckFinding]
    }
}
