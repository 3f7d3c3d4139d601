import GRDB
import GRDBSQLite
import WalletWatchCore

/// A statement prepared once and run many times with values bound through SQLite's C API,
/// for the ingest's hot path: a million rows through GRDB's record methods would spend most
/// of their time building SQL and boxing values (about 20 µs a row, against 2 to 3 here).
/// Used inside one write transaction, on its thread; finalized when released.
final class PreparedStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    let sql: String

    init(_ db: Database, _ sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw StoreError.database("cannot prepare \(sql): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
        handle = statement
        connection = db.sqliteConnection!
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: String?) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    func bind(_ index: Int32, _ value: Instant) {
        value.withISO8601Bytes { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    func bind(_ index: Int32, _ value: Instant?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Runs a statement that returns no row; returns the number of rows it changed.
    @discardableResult
    func execute() throws -> Int {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw failure(code) }
        return Int(sqlite3_changes(connection))
    }

    /// Runs a query and calls `body` with its first row, if any.
    func first<T>(_ body: (Row) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return try body(Row(handle))
        case SQLITE_DONE: return nil
        case let code: throw failure(code)
        }
    }

    private func failure(_ code: Int32) -> StoreError {
        .database("\(String(cString: sqlite3_errmsg(connection))) (\(code)) in \(sql)")
    }

    /// A row of the current step, read by column index.
    struct Row {
        let handle: OpaquePointer
        init(_ handle: OpaquePointer) { self.handle = handle }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
        func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(handle, column) else { return nil }
            return String(cString: bytes)
        }
    }
}
