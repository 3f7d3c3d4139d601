import WalletWatchStore

/// The database an engine works on, opened by the program's entry point and handed to
/// ``Engine``. The command line and the web view hold it only to pass it on: they do not depend
/// on the store, and everything they read comes from the engine's use cases.
public struct Storage: Sendable {
    let database: AppDatabase

    /// Wraps a database the caller opened (tests use the store directly).
    public init(_ database: AppDatabase) {
        self.database = database
    }

    /// Opens (creating when needed, with mode 0600, and migrating) the database file at `path`.
    /// - parameter busyTimeoutSeconds: how long a write waits for another process's write.
    public static func open(path: String, busyTimeoutSeconds: Int = AppDatabase.defaultBusyTimeoutSeconds) throws -> Storage {
        Storage(try AppDatabase.open(path: path, busyTimeoutSeconds: busyTimeoutSeconds))
    }

    /// The database file's path, or nil in memory.
    public var path: String? { database.path }
}
