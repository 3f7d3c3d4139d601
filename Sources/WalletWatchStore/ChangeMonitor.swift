import GRDB

/// Notices commits to the database by any connection of any process, through SQLite's
/// `PRAGMA data_version`, which changes on a connection whenever another connection commits.
/// It keeps its own read-only connection for that, so commits through the app's pool count
/// too. Views poll it (at most every 500 ms) to redraw by themselves.
public final class ChangeMonitor: Sendable {
    private let connection: DatabaseQueue

    /// A monitor of the database file at `path`.
    init(path: String) throws {
        var configuration = AppDatabase.makeConfiguration()
        configuration.readonly = true
        configuration.label = "walletwatch-change-monitor"
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// A number that changes whenever the database changed since the last call.
    public func version() throws -> Int64 {
        try connection.read { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }
}

extension AppDatabase {
    /// A monitor of this database's commits by any process, with its own read-only connection
    /// (opened here, beside the pool, so that no other module opens the file); nil in memory.
    public func changeMonitor() throws -> ChangeMonitor? {
        try path.map { try ChangeMonitor(path: $0) }
    }
}
