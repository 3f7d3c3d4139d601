import GRDB
import GRDBSQLite
import WalletWatchCore

/// A statement prepared once and run many times with values bound through SQLite's C API,
/// for the ingest's hot path: a million rows through GRDB's record methods would spend most
/// of their time building SQL and boxing values (about 20 µs a row, against 2 to 3 here).
/// Used inside one write transaction, on its thread; finalized when released.
///
/// Every result of SQLite is checked. A value SQLite refuses to bind (SQLITE_TOOBIG past
/// `SQLITE_LIMIT_LENGTH`, SQLITE_NOMEM) would otherwise leave NULL or the previous row's value
/// in its place and be written unnoticed: the first such failure is kept and thrown by the next
/// ``execute()`` or ``first(_:)``, before the statement runs.
final class PreparedStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    let sql: String
    /// The first bind that failed since the statement last ran.
    private var bindFailure: StoreError?

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

    // Its result repeats the last step's error, which that step already reported.
    deinit { _ = sqlite3_finalize(handle) }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ index: Int32, _ value: Int64) { check(sqlite3_bind_int64(handle, index, value), index) }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }

    /// An amount in its stored form (``StoredAmount``): an integer within 64 bits, else its digits.
    func bind(_ index: Int32, amount: Int128?) {
        guard let amount else { return bindNull(index) }
        if let small = Int64(exactly: amount) { bind(index, small) } else { bind(index, String(amount)) }
    }

    func bind(_ index: Int32, _ value: String?) {
        guard var value else {
            bindNull(index)
            return
        }
        // The 64-bit length: a text past SQLite's limit is refused (SQLITE_TOOBIG), never cut.
        check(value.withUTF8 { sqlite3_bind_text64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), Self.transient, UInt8(SQLITE_UTF8)) }, index)
    }

    func bind(_ index: Int32, _ value: Instant) {
        check(value.withISO8601Bytes { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }, index)
    }

    func bind(_ index: Int32, _ value: Instant?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }

    private func bindNull(_ index: Int32) { check(sqlite3_bind_null(handle, index), index) }

    /// Keeps the first failed bind, naming the parameter and SQLite's reason.
    private func check(_ code: Int32, _ index: Int32) {
        guard code != SQLITE_OK, bindFailure == nil else { return }
        bindFailure = .database("cannot bind parameter \(index): \(String(cString: sqlite3_errstr(code))) (\(code)) in \(sql)")
    }

    /// Throws the kept bind failure (and clears the bindings, so that no value of this attempt
    /// is used by the next one).
    private func ensureBound() throws {
        guard let failure = bindFailure else { return }
        bindFailure = nil
        _ = sqlite3_clear_bindings(handle) // Always SQLITE_OK.
        throw failure
    }

    /// Runs a statement that returns no row; returns the number of rows it changed.
    @discardableResult
    func execute() throws -> Int {
        try ensureBound()
        // reset's result repeats the step's error, which is thrown below.
        defer { _ = sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw failure(code) }
        return Int(sqlite3_changes(connection))
    }

    /// Runs a query and calls `body` with its first row, if any.
    func first<T>(_ body: (Row) throws -> T) throws -> T? {
        try ensureBound()
        defer { _ = sqlite3_reset(handle) }
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

        /// A stored amount (``StoredAmount``): an integer, or the digits of one beyond 64 bits.
        func amount(_ column: Int32) throws -> Int128 {
            if sqlite3_column_type(handle, column) == SQLITE_INTEGER { return Int128(int64(column)) }
            guard let digits = text(column), let amount = Int128(digits) else {
                throw StoreError.database("column \(column) holds no amount: \(text(column) ?? "NULL")")
            }
            return amount
        }

        func optionalAmount(_ column: Int32) throws -> Int128? { isNull(column) ? nil : try amount(column) }

        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(handle, column) else { return nil }
            return String(cString: bytes)
        }
    }
}
