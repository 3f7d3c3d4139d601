import CSQLiteTuning
import Foundation
import GRDB
import WalletWatchCore

/// The walletwatch database: one SQLite file in WAL mode shared by the daemon and every command.
///
/// Each public write method is one database transaction that keeps the data consistent: it
/// checks the rules and changes everything it must, or nothing. Reads see committed data only.
public struct AppDatabase: Sendable {
    /// The connection (a `DatabasePool` for files, a `DatabaseQueue` in memory for tests).
    let writer: any DatabaseWriter

    /// Wraps a connection made with ``makeConfiguration()`` and migrates the schema to the latest version.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        do {
            try AppDatabase.migrator.migrate(writer)
        } catch {
            // Two processes opening a new database at once (the daemon and a command) may both
            // decide to create the schema; each migration is one transaction, so the later one
            // fails ("table assets already exists") once the first has committed. A second look
            // then finds everything applied; a real failure fails again the same way.
            try AppDatabase.migrator.migrate(writer)
        }
    }

    /// Opens (creating when needed, with mode 0600) the database file at `path`.
    /// - parameter busyTimeoutSeconds: how long a write waits for another process's write
    ///   transaction before failing with "database is locked" (see ``defaultBusyTimeoutSeconds``).
    public static func open(path: String, busyTimeoutSeconds: Int = defaultBusyTimeoutSeconds) throws -> AppDatabase {
        _ = tuneSQLite
        do {
            try createPrivateFile(path)
            let pool = try DatabasePool(path: path, configuration: makeConfiguration(busyTimeoutSeconds: busyTimeoutSeconds))
            return try AppDatabase(pool)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: describe(error))
        }
    }

    /// An empty database in memory, for tests.
    public static func inMemory() throws -> AppDatabase {
        _ = tuneSQLite
        return try AppDatabase(DatabaseQueue(configuration: makeConfiguration()))
    }

    /// Process-wide SQLite settings, applied once before the first connection: SQLite's memory
    /// statistics take a global mutex on every allocation, which cost a tenth of an ingest's
    /// write time; walletwatch never reads them. (Too late when another library opened SQLite
    /// first: then nothing changes.)
    private static let tuneSQLite: Void = {
        _ = walletwatch_sqlite_disable_memory_statistics()
    }()

    /// How long a write waits for another's transaction unless told otherwise. Every write
    /// transaction walletwatch makes is short: an ingest downloads and compares with no lock
    /// held and writes a big pass in pieces of a few thousand rows (tens of milliseconds each),
    /// so a write waits at most for one such piece, or for one command's write. 5 s leaves a
    /// wide margin for a slow disk; only the first open after an upgrade, whose migration may
    /// rebuild a large ledger, can take longer (the other process then reports the lock).
    public static let defaultBusyTimeoutSeconds = 5

    /// Foreign keys on, and a busy timeout so that a command and a running daemon wait for each
    /// other instead of failing with "database is locked". GRDB opens write transactions with
    /// BEGIN IMMEDIATE, so a write never has to upgrade a read lock (which no timeout can fix).
    public static func makeConfiguration(busyTimeoutSeconds: Int = defaultBusyTimeoutSeconds) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(TimeInterval(busyTimeoutSeconds))
        config.label = "walletwatch"
        return config
    }

    /// The path of the database file, or nil in memory.
    public var path: String? {
        let path = writer.path
        return path.isEmpty || path == ":memory:" ? nil : path
    }

    /// Reads the database in a consistent snapshot.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try writer.read(body) } catch { throw AppDatabase.translate(error) }
    }

    /// Runs `body` in one write transaction; Core and store errors pass through unchanged.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try writer.write(body) } catch { throw AppDatabase.translate(error) }
    }

    /// Runs `body` in one write transaction without blocking the caller's thread.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.write(body) } catch { throw AppDatabase.translate(error) }
    }

    /// Reads without blocking the caller's thread.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.read(body) } catch { throw AppDatabase.translate(error) }
    }

    /// Keeps walletwatch's own errors; turns SQLite's into a ``StoreError`` with a readable reason.
    static func translate(_ error: any Error) -> any Error {
        if error is any Classified { return error }
        return StoreError.database(describe(error))
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode)"
        }
        return String(describing: error)
    }

    /// Creates an empty file readable by its owner only, before SQLite opens it; SQLite gives the
    /// -wal and -shm files the same permissions.
    private static func createPrivateFile(_ path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw StoreError.cannotOpen(path: path, reason: "the folder \(directory) does not exist")
        }
        let descriptor = Foundation.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }
}

/// A failure of the database itself (not of the user's input).
public enum StoreError: Classified, Equatable {
    case cannotOpen(path: String, reason: String)
    case database(String)
    /// A stored value that walletwatch cannot read back (a corrupt or foreign database).
    case corrupt(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open the database \(path): \(reason)"
        case .database(let reason): "database error: \(reason)"
        case .corrupt(let what): "the database holds a value walletwatch cannot read: \(what)"
        }
    }

    public var kind: ErrorKind { .runtime }
}
