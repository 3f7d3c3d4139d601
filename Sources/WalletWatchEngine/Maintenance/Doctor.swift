import Foundation
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// One line of `walletwatch doctor`: what was looked at, whether it is fine, and what was seen
/// (for a failure: the cause, the evidence, and what to do).
public struct DoctorCheck: Hashable, Sendable {
    /// `config`, `database`, `source NAME`, `rates`, `backups`, `mode of ...`.
    public let name: String
    /// Whether it is fine; one that is not makes `doctor` exit 1.
    public let ok: Bool
    /// What was seen: for a failure, the cause first, then the evidence and what to do.
    public let detail: String

    public init(name: String, ok: Bool, detail: String) {
        self.name = name
        self.ok = ok
        self.detail = detail
    }
}

/// `walletwatch doctor`: why does something not work? It reads the config (the caller already
/// parsed it), opens the database, asks each source the questions an ingest asks with the
/// clients the ingest uses (reachable? token accepted? answers shaped like its API?), asks the
/// rate provider for prices without storing them, and looks at the modes of the files that
/// hold private data. It changes nothing stored.
public struct Doctor: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let http: any HTTPClient
    let rates: RateBook
    let backups: Backups
    /// The ingest's clients; their warnings about secret files are dropped here, because the
    /// doctor reports file modes as checks of their own.
    let clients: SourceClients

    init(database: AppDatabase, config: AppConfig, clock: WallClock, http: any HTTPClient, rates: RateBook, backups: Backups) {
        self.database = database
        self.config = config
        self.clock = clock
        self.http = http
        self.rates = rates
        self.backups = backups
        clients = SourceClients(http: http, config: config.http, secretFiles: SecretFileWarnings { _ in })
    }

    /// Every check, in order: the config, the database, each source, the rate provider, the
    /// backups, then the file modes.
    public func run() async -> [DoctorCheck] {
        var checks = [configCheck(), databaseCheck()]
        for source in config.sources {
            checks.append(await check(source))
        }
        checks.append(await ratesCheck())
        checks.append(backupsCheck())
        checks += modeChecks()
        return checks
    }

    /// What the doctor can tell when the config or the database cannot be used, so nothing
    /// else can be asked: that failure as the `config` or `database` check, and the mode of the
    /// config file when it exists.
    public static func cannotStart(_ error: any Error, configFile: String?) -> [DoctorCheck] {
        let reason = (error as? any Classified)?.description ?? "\(error)"
        var checks = [DoctorCheck(name: error is ConfigError ? "config" : "database", ok: false, detail: reason)]
        if let configFile, FileManager.default.fileExists(atPath: configFile) {
            checks.append(.mode(of: configFile, named: "mode of config"))
        }
        return checks
    }

    func configCheck() -> DoctorCheck {
        let sources = config.sources.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", ")
        let summary = "\(config.sources.count) source(s)\(sources.isEmpty ? "" : ": \(sources)"); rates from \(config.rates.provider.rawValue)"
        guard let file = config.file else {
            return DoctorCheck(name: "config", ok: true, detail: "no config file; the database given by --db, \(summary)")
        }
        return DoctorCheck(name: "config", ok: true, detail: "\(file) parsed: \(summary)")
    }

    /// The database opened (the command could not have started otherwise) and migrated; a
    /// file or folder walletwatch may not write to is a failure waiting for the next write.
    func databaseCheck() -> DoctorCheck {
        guard let path = database.path else { return DoctorCheck(name: "database", ok: true, detail: "in memory") }
        let folder = (path as NSString).deletingLastPathComponent
        if access(path, R_OK | W_OK) != 0 {
            return DoctorCheck(name: "database", ok: false, detail: "\(path) is read-only for this user (\(String(cString: strerror(errno)))); every write will fail; fix its owner or mode")
        }
        if access(folder, W_OK) != 0 {
            return DoctorCheck(name: "database", ok: false, detail: "the folder \(folder) is read-only for this user; SQLite needs it for the database's -wal and -shm files")
        }
        return DoctorCheck(name: "database", ok: true, detail: "\(path) opens with the current schema and can be written")
    }

    /// The newest backup in the folder: a schedule that stopped making them is a failure.
    func backupsCheck() -> DoctorCheck {
        let all = backups.list()
        let every = config.backup.everyHours
        let schedule = every == 0 ? "the daemon makes none (every_hours = 0)" : "the daemon makes one every \(every) h, keeping \(config.backup.keep)"
        guard let newest = all.last else {
            return DoctorCheck(name: "backups", ok: true, detail: "none yet in \(backups.folder); \(schedule)")
        }
        let age = clock.now.seconds(since: newest.madeAt)
        let summary = "\(all.count) in \(backups.folder), the newest from \(newest.madeAt.iso8601) (\(Age.describe(age)) ago); \(schedule)"
        if every > 0, age > Int64(every) * 2 * 3600 {
            return DoctorCheck(name: "backups", ok: false, detail: "\(summary): the newest is over twice that old; is the daemon running? its log says why a backup failed")
        }
        return DoctorCheck(name: "backups", ok: true, detail: summary)
    }

    /// The files with private data: the database (and its WAL), the config, every token file
    /// and webhook secret file.
    /// Others may not read or change any of them.
    func modeChecks() -> [DoctorCheck] {
        var files: [(what: String, path: String)] = []
        if let path = database.path {
            files.append(("database", path))
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                files.append(("database \(suffix.dropFirst())", path + suffix))
            }
        }
        if let file = config.file { files.append(("config", file)) }
        for source in config.sources {
            if case .file(let path) = source.token { files.append(("source \(source.name) token_file", path)) }
        }
        if let token = config.serve.tokenFile { files.append(("[serve] token_file", token)) }
        for target in config.notify {
            if let secret = target.secretFile { files.append(("notify \(target.name) secret_file", secret)) }
        }
        return files.map { file in
            DoctorCheck.mode(of: file.path, named: "mode of \(file.what)")
        }
    }
}

extension DoctorCheck {
    /// Fails when the file's group or others have any permission on it (reading leaks it,
    /// writing lets them change it), or when it cannot be examined.
    static func mode(of path: String, named name: String) -> DoctorCheck {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return DoctorCheck(name: name, ok: false, detail: "\(path) cannot be examined: \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & 0o777
        let octal = String(repeating: "0", count: max(0, 4 - String(mode, radix: 8).count)) + String(mode, radix: 8)
        guard mode & 0o077 == 0 else {
            let access = [mode & 0o044 != 0 ? "read" : nil, mode & 0o022 != 0 ? "changed" : nil].compactMap { $0 }.joined(separator: " and ")
            return DoctorCheck(name: name, ok: false, detail: "\(path) can be \(access.isEmpty ? "used" : access) by other users (mode \(octal)); run chmod 600 \(path)")
        }
        return DoctorCheck(name: name, ok: true, detail: "\(path) is private (mode \(octal))")
    }
}
