import GRDB
import GRDBSQLite
import Testing
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Prepared statements: every SQLite result checked")
struct PreparedStatementTests {
    /// SQLITE_LIMIT_LENGTH lowered to 1,000 bytes, so that a text of 5,000 is refused at bind
    /// time (SQLITE_TOOBIG), as a text past the real limit (1 GB) would be.
    @Test("a value SQLite refuses to bind (too big) is an error naming the parameter; nothing of that row is written; the next row binds anew")
    func refusedBind() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT, b INTEGER)")
            _ = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000)
            let insert = try PreparedStatement(db, "INSERT INTO t (a, b) VALUES (?, ?)")
            insert.bind(1, "small")
            insert.bind(2, Int64(1))
            try insert.execute()

            insert.bind(1, String(repeating: "x", count: 5_000))
            insert.bind(2, Int64(2))
            let error = try #require(throws: StoreError.self) { try insert.execute() }
            #expect(error.description.contains("cannot bind parameter 1: string or blob too big (18)"), "\(error)")

            let instant = Instant.at("2026-11-21T12:00:00Z")
            insert.bind(1, instant)
            insert.bind(2, Int64(3))
            try insert.execute()
            #expect(try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY b").map { "\($0[0] as String? ?? "NULL") \($0[1] as Int64)" }
                    == ["small 1", "2026-11-21T12:00:00.000Z 3"])

            let lookup = try PreparedStatement(db, "SELECT b FROM t WHERE a = ?")
            lookup.bind(1, String(repeating: "y", count: 5_000))
            #expect(throws: StoreError.self) { try lookup.first { $0.int64(0) } }
        }
    }
}
