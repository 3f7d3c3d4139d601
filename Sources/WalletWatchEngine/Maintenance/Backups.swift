import Foundation
import WalletWatchCore
import WalletWatchStore

/// A backup made by `walletwatch backup` or the daemon: the checked copy, and the older backups
/// removed from the folder to keep the newest `[backup] keep`.
public struct BackupMade: Sendable, Equatable {
    /// The copy's absolute path.
    public let path: String
    /// Its size in bytes.
    public let bytes: Int64
    /// SQLite's `integrity_check` of the copy: `ok` (anything else is an error, not a backup).
    public let integrity: String
    /// Older backups removed from the folder, oldest first.
    public let removed: [String]
}

/// Backups of the database (SPEC.md section 20): consistent copies through SQLite's online
/// backup, also while the daemon writes, each checked before it counts; files named after the
/// instant they were made (`walletwatch-20261121T120000.000Z.sqlite`), so that the folder sorts
/// oldest first and the newest `[backup] keep` are easy to tell.
public struct Backups: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock

    init(database: AppDatabase, config: AppConfig, clock: WallClock) {
        self.database = database
        self.config = config
        self.clock = clock
    }

    /// `[backup] folder`, else `backups` beside the database.
    public var folder: String {
        config.backup.folder ?? ((config.database as NSString).deletingLastPathComponent as NSString).appendingPathComponent("backups")
    }

    /// Makes a backup. Without `path`, into ``folder`` (created with mode 0700 when missing)
    /// under a timestamped name, then keeps the newest `[backup] keep` of the folder's backups;
    /// with a folder as `path`, under a timestamped name there (nothing removed); with a file
    /// name, there (an existing file only with `replace`).
    public func make(to path: String? = nil, replace: Bool = false) async throws -> BackupMade {
        let now = clock.now
        var destination: String
        var prunes = false
        if let path {
            destination = ConfigLoader.absolute(path, relativeTo: FileManager.default.currentDirectoryPath)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder.boolValue {
                destination = Self.freeName(in: destination, at: now)
            }
        } else {
            try Self.createFolder(folder)
            destination = Self.freeName(in: folder, at: now)
            prunes = true
        }
        let copy = try await database.backup(to: destination, replace: replace)
        let removed = prunes ? prune(keep: config.backup.keep) : []
        return BackupMade(path: copy.path, bytes: copy.bytes, integrity: copy.integrity, removed: removed)
    }

    /// The finished backups in ``folder`` with the instant each was made, oldest first. Other
    /// files are never counted, moved or removed; a backup's unfinished copy (`.partial`, a
    /// killed backup's) is not a backup, and the next backup removes it.
    public func list() -> [(path: String, madeAt: Instant)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name in
            Self.instant(ofFileName: name).map { ((folder as NSString).appendingPathComponent(name), $0) }
        }.sorted { $0.madeAt < $1.madeAt }
    }

    /// Removes all but the newest `keep` backups of ``folder``; returns the removed paths.
    @discardableResult
    public func prune(keep: Int) -> [String] {
        let all = list()
        guard all.count > keep else { return [] }
        return all.dropLast(keep).compactMap { backup in unlink(backup.path) == 0 ? backup.path : nil }
    }

    /// `walletwatch-20261121T120000.000Z.sqlite` for that instant: ISO 8601 without the dashes and
    /// colons that some file systems and tools refuse.
    public static func fileName(at instant: Instant) -> String {
        "walletwatch-" + instant.iso8601.filter { $0 != "-" && $0 != ":" } + ".sqlite"
    }

    /// The instant in a backup's file name, or nil for any other file.
    public static func instant(ofFileName name: String) -> Instant? {
        guard name.hasPrefix("walletwatch-"), name.hasSuffix(".sqlite") else { return nil }
        let stamp = Array(name.dropFirst("walletwatch-".count).dropLast(".sqlite".count))
        // yyyyMMddTHHmmss.SSSZ, back to yyyy-MM-ddTHH:mm:ss.SSSZ
        guard stamp.count == 20, stamp[8] == "T", stamp[15] == ".", stamp[19] == "Z" else { return nil }
        var text = stamp
        // From the end, so that each position is still the original one.
        for (position, separator) in [(13, ":"), (11, ":"), (6, "-"), (4, "-")] as [(Int, Character)] {
            text.insert(separator, at: position)
        }
        return Instant(iso8601: String(text))
    }

    /// A name in `folder` for a backup made at `instant` that no file has yet, finished or being
    /// written (`.partial`): one made in the same millisecond (a fixed clock) takes the next
    /// free millisecond, which keeps the order.
    static func freeName(in folder: String, at instant: Instant) -> String {
        var instant = instant
        while true {
            let path = (folder as NSString).appendingPathComponent(fileName(at: instant))
            if !FileManager.default.fileExists(atPath: path), !FileManager.default.fileExists(atPath: path + ".partial") { return path }
            instant = instant.adding(milliseconds: 1)
        }
    }

    /// Creates the backup folder (mode 0700: backups hold the same private data as the database).
    static func createFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw BackupError("the backup folder \(folder) is a file; set [backup] folder to a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BackupError("cannot create the backup folder \(folder): \(error.localizedDescription)")
        }
    }
}

/// A backup could not be made; the message names the folder or file and the reason.
public struct BackupError: Classified, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var kind: ErrorKind { .runtime }
}
