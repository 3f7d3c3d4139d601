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
    /// Ingest passes this process gave up while the disk refused even to mark them ownerless.
    let abandonedPasses = AbandonedPasses()

    /// Wraps a connection made with ``makeConfiguration()`` and migrates the schema to the latest version.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        // Two processes opening a new (or older) database at once, the daemon and a command, may
        // both set out to migrate it. Each migration is one transaction, so whichever comes
        // second to a migration fails once the other has committed it ("table assets already
        // exists", or "database is locked" when its view of the file is stale). Looking again,
        // it finds more migrations applied and goes on from there. A failure while nobody else
        // applied anything is a real one and is thrown: the loop ends because every retry
        // needs at least one more applied migration than the last.
        var applied = (try? writer.read { try AppDatabase.migrator.appliedIdentifiers($0).count }) ?? 0
        while true {
            do {
                try AppDatabase.migrator.migrate(writer)
                return
            } catch {
                let now = (try? writer.read { try AppDatabase.migrator.appliedIdentifiers($0).count }) ?? 0
                guard now > applied else { throw error }
                applied = now
            }
        }
    }

    /// Wraps a connection whose schema is known to be current (a read-only file).
    private init(current writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Opens (creating when needed, with mode 0600) the database file at `path`.
    /// - parameter busyTimeoutSeconds: how long a write waits for another process's write
    ///   transaction before failing with "database is locked" (see ``defaultBusyTimeoutSeconds``).
    /// - parameter readOnly: open for reading only (`check`), so that opening changes nothing
    ///   in the file, not even its journal mode; a file of an older schema is upgraded first.
    public static func open(path: String, busyTimeoutSeconds: Int = defaultBusyTimeoutSeconds, readOnly: Bool = false) throws -> AppDatabase {
        _ = tuneSQLite
        do {
            try createPrivateFile(path)
            var configuration = makeConfiguration(busyTimeoutSeconds: busyTimeoutSeconds)
            let writable = access(path, W_OK) == 0
            if readOnly || !writable {
                // A file this user may only read (a copy kept read-only, a read-only mount) is
                // opened as it is too: reading works, and a write is refused by SQLite, naming
                // the file. Its schema must be current already: an upgrade writes.
                configuration.readonly = true
                let pool = try DatabasePool(path: path, configuration: configuration)
                if try pool.read({ try migrator.hasCompletedMigrations($0) }) { return AppDatabase(current: pool) }
                try pool.close()
                guard writable else {
                    throw StoreError.cannotOpen(path: path, reason: "the file is read-only, and its schema is older than this walletwatch's; upgrading it writes to it, so make it writable once")
                }
                configuration.readonly = false
            }
            return try openWaitingForOthers(path: path, configuration: configuration, patience: .seconds(busyTimeoutSeconds))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: (error as? DatabaseError).flatMap(cause) ?? describe(error))
        }
    }

    /// Opens the pool and migrates. Where waiting for a lock could deadlock (a connection whose
    /// view of the file went stale while another process migrated it, or set up its WAL),
    /// SQLite answers "database is locked" at once instead of calling the busy handler; that
    /// happens when processes open a new database together. Such an answer is retried, for
    /// at most the busy timeout, as the handler would have waited.
    private static func openWaitingForOthers(path: String, configuration: Configuration, patience: Duration) throws -> AppDatabase {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                return try AppDatabase(DatabasePool(path: path, configuration: configuration))
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
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
    /// so a write waits for about one such piece (``busyHandler(seconds:)``), or for one
    /// command's write. 5 s leaves a wide margin for a slow disk; only the first open after an
    /// upgrade, whose migration may rebuild a large ledger, can take longer (the other process
    /// then reports the lock).
    public static let defaultBusyTimeoutSeconds = 5

    /// Foreign keys on, and a busy handler so that a command and a running daemon wait for each
    /// other instead of failing with "database is locked". GRDB opens write transactions with
    /// BEGIN IMMEDIATE, so a write never has to upgrade a read lock (which no timeout can fix).
    public static func makeConfiguration(busyTimeoutSeconds: Int = defaultBusyTimeoutSeconds) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .callback(busyHandler(seconds: busyTimeoutSeconds))
        config.label = "walletwatch"
        // Amounts beyond 64 bits are stored as text (StoredAmount): sums go through these.
        config.prepareDatabase { db in
            db.add(function: AmountSQL.sum)
            db.add(function: AmountSQL.total)
        }
        return config
    }

    /// Tries a lock again every millisecond, for at least `seconds` in all, then gives up
    /// ("database is locked"). SQLite's own busy timeout sleeps longer and longer between
    /// tries, up to 100 ms, and a lock has no queue: beside an ingest that writes piece after
    /// piece (about 50 ms each, a median of 6 ms apart), such a waiter keeps waking while the
    /// next piece holds the lock. Traced beside a first ingest of a million movements, one
    /// waited 1.2 s while no piece held the lock longer than 108 ms. Tried every millisecond,
    /// the lock is taken in the first gap.
    static func busyHandler(seconds: Int) -> Database.BusyCallback {
        let tries = seconds * 1000
        return { numberOfTries in
            guard numberOfTries < tries else { return false }
            usleep(1000)
            return true
        }
    }

    /// The path of the database file, or nil in memory.
    public var path: String? {
        let path = writer.path
        return path.isEmpty || path == ":memory:" ? nil : path
    }

    /// Reads the database in a consistent snapshot.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try writer.read { db in try Self.withCurrencies(of: db) { try body(db) } } } catch { throw translate(error, writing: false) }
    }

    /// Runs `body` in one write transaction; Core and store errors pass through unchanged.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try writer.write { db in try Self.withCurrencies(of: db) { try body(db) } } } catch { throw translate(error, writing: true) }
    }

    /// Runs `body` in one write transaction without blocking the caller's thread.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.write { db in try Self.withCurrencies(of: db) { try body(db) } } } catch { throw translate(error, writing: true) }
    }

    /// Reads without blocking the caller's thread.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.read { db in try Self.withCurrencies(of: db) { try body(db) } } } catch { throw translate(error, writing: false) }
    }

    /// Runs `body` with this database's currencies (its user's units too) as the registry in
    /// effect: rows are decoded inside GRDB's record initialisers, which take no context, and a
    /// stored `GOLD` must read back as the unit its user added (CurrencyRegistry says why).
    static func withCurrencies<T>(of db: Database, _ body: () throws -> T) throws -> T {
        try CurrencyRegistry.$current.withValue(try currencyRegistry(db), operation: body)
    }

    /// Keeps walletwatch's own errors; turns SQLite's into a ``StoreError`` with a readable reason.
    /// A file's errors name the file: a refused write (disk full, read-only, locked past the
    /// busy timeout) is reported as what the user can act on, with the transaction rolled back.
    func translate(_ error: any Error, writing: Bool) -> any Error {
        guard let path else { return AppDatabase.translate(error) }
        if let error = error as? DatabaseError, let cause = Self.cause(error) {
            return StoreError.refused(path: path, writing: writing, cause: cause)
        }
        // The same failures reported by the store's own statements (the ingest's prepared ones).
        if case StoreError.database(let reason) = error, let code = Self.resultCode(in: reason),
           Self.refusalCodes.contains(code.primaryResultCode) {
            return StoreError.refused(path: path, writing: writing, cause: reason)
        }
        return AppDatabase.translate(error)
    }

    /// The result code in a prepared statement's failure ("database or disk is full (13) in INSERT ...").
    static func resultCode(in reason: String) -> ResultCode? {
        guard let end = reason.range(of: ") in ")?.lowerBound,
              let start = reason[..<end].lastIndex(of: "("),
              let code = Int32(reason[reason.index(after: start)..<end]) else { return nil }
        return ResultCode(rawValue: code)
    }

    /// The result codes of a file SQLite cannot use (as opposed to a rule of the schema).
    static let refusalCodes: [ResultCode] = [.SQLITE_FULL, .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_IOERR,
                                             .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_CANTOPEN, .SQLITE_PERM]

    /// Keeps walletwatch's own errors; turns SQLite's into a ``StoreError`` with a readable reason.
    static func translate(_ error: any Error) -> any Error {
        if error is any Classified { return error }
        return StoreError.database(describe(error))
    }

    /// What a user can do about an SQLite failure of the file (disk full, read-only, locked,
    /// damaged), by its result code; nil for other failures (a constraint, a trigger's refusal).
    static func cause(_ error: DatabaseError) -> String? {
        let message = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_FULL:
            return "the disk is full (\(message)); free some space and try again"
        case .SQLITE_READONLY:
            return "the file is read-only (\(message)); check the permissions of the file and its folder, or whether the file system is mounted read-only"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "it is locked by another process's write for longer than the busy timeout (\(message)); try again when that write has ended"
        case .SQLITE_IOERR:
            return "a disk I/O error (\(message)); the disk may be full, failing, or past a file size limit"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "the file is damaged (\(message)); `walletwatch check` shows what, or restore a backup"
        case .SQLITE_CANTOPEN, .SQLITE_PERM:
            return "it cannot be opened for writing (\(message)); check the permissions of the file and its folder"
        default:
            return nil
        }
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
        var descriptor = Foundation.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        // A file this process may only read (a read-only copy, a read-only mount) still opens:
        // reading works, and a write is refused by SQLite with a message naming the file.
        if descriptor < 0, errno == EACCES || errno == EROFS, FileManager.default.fileExists(atPath: path) {
            descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        }
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
    /// SQLite refused a read or a write of the file at `path` (disk full, read-only, locked);
    /// a refused write was rolled back whole.
    case refused(path: String, writing: Bool, cause: String)
    /// A backup to `path` could not be made; nothing was left at `path`.
    case backupFailed(path: String, reason: String)
    /// A stored value that walletwatch cannot read back (a corrupt or foreign database).
    case corrupt(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open the database \(path): \(reason)"
        case .database(let reason): "database error: \(reason)"
        case .refused(let path, true, let cause): "the database \(path) refused the write, so nothing was changed: \(cause)"
        case .refused(let path, false, let cause): "the database \(path) cannot be read: \(cause)"
        case .backupFailed(let path, let reason): "the backup \(path) was not made: \(reason)"
        case .corrupt(let what): "the database holds a value walletwatch cannot read: \(what)"
        }
    }

    public var kind: ErrorKind { .runtime }
}
