import Foundation
import GRDB
import WalletWatchCore

/// A copy of the database that was written whole and passed SQLite's integrity check.
public struct BackupCopy: Sendable, Equatable {
    /// Where it is (the path asked for).
    public let path: String
    /// Its size in bytes.
    public let bytes: Int64
    /// What `PRAGMA integrity_check` said about the copy: `ok`.
    public let integrity: String
}

extension AppDatabase {
    /// Copies the database into a new file at `destination` through SQLite's online backup, as
    /// one consistent snapshot: a daemon writing meanwhile neither waits for the copy nor
    /// appears half in it (the copy is read in one read transaction, which in WAL mode sees
    /// the last commit before it began). The copy is written to `destination.partial` (mode
    /// 0600), turned into a single file (rollback journal instead of WAL), checked with
    /// `PRAGMA integrity_check`, and only then renamed to `destination`. What an ingest pass
    /// had staged but not published is left out of the copy. So a failure (disk
    /// full, a damaged copy) leaves no file at `destination` and nothing else changed; a backup
    /// killed midway leaves its unfinished copy, which the next backup into that folder removes
    /// (``BackupFolderLock``).
    /// - parameter replace: an existing file at `destination` is replaced; otherwise it is refused.
    public func backup(to destination: String, replace: Bool) async throws -> BackupCopy {
        guard let source = path else { throw Refusal("an in-memory database has no file to back up") }
        try Self.refuseLiveFile(destination, database: source)
        if !replace, FileManager.default.fileExists(atPath: destination) {
            throw Refusal("\(destination) already exists; name another file, or pass --replace to overwrite it")
        }
        // Held until the copy has its name: while it is, no other backup takes this one's files
        // for a killed backup's leftovers.
        let folderLock = BackupFolderLock.acquire(folder: (destination as NSString).deletingLastPathComponent, destination: destination)
        defer { folderLock?.release() }
        let partial = destination + ".partial"
        let descriptor = Foundation.open(partial, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "\(partial) exists: another backup to it is still running" : String(cString: strerror(errno))
            throw StoreError.backupFailed(path: destination, reason: "cannot create \(partial): \(reason)")
        }
        close(descriptor)
        do {
            var configuration = Configuration()
            configuration.label = "walletwatch-backup"
            let copy = try DatabaseQueue(path: partial, configuration: configuration)
            try await writer.read { source in
                try copy.writeWithoutTransaction { target in try source.backup(to: target) }
            }
            // The backup copies the WAL flag of the live file: a copy is easier to keep, move and
            // restore as one file.
            try await copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            // An ingest pass in progress when the copy was taken is invisible in it, and would
            // stay there as rows no reader sees (until that source's next ingest, and a finding
            // of `check` meanwhile): the copy leaves it out and holds what readers saw.
            try await copy.write { db in try Self.dropPassesInProgress(db) }
            let integrity = try await copy.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }.joined(separator: "; ")
            try copy.close()
            guard integrity == "ok" else {
                throw StoreError.backupFailed(path: destination, reason: "the copy failed SQLite's integrity check (\(integrity))")
            }
            guard rename(partial, destination) == 0 else {
                throw StoreError.backupFailed(path: destination, reason: "cannot rename \(partial) to it: \(String(cString: strerror(errno)))")
            }
            let size = ((try? FileManager.default.attributesOfItem(atPath: destination))?[.size] as? NSNumber)?.int64Value ?? 0
            return BackupCopy(path: destination, bytes: size, integrity: integrity)
        } catch {
            BackupFolderLock.removeUnfinished(of: destination)
            if let error = error as? DatabaseError {
                throw StoreError.backupFailed(path: destination, reason: Self.cause(error) ?? Self.describe(error))
            }
            throw error
        }
    }

    /// Removes every pass that has not published, with what it staged (new rows, changes to
    /// existing ones, a new asset): in a copy, no process will ever finish or abandon them.
    static func dropPassesInProgress(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM ledger WHERE pass IN (SELECT id FROM ingest_passes);
            DELETE FROM staged_updates WHERE pass IN (SELECT id FROM ingest_passes);
            DELETE FROM asset_rows WHERE pass IN (SELECT id FROM ingest_passes);
            DELETE FROM ingest_passes;
            """)
    }

    /// A backup over the live database (or its WAL, shared memory or journal) would destroy it.
    private static func refuseLiveFile(_ destination: String, database: String) throws {
        let resolved = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let target = resolved(destination)
        let live = resolved(database)
        if ["", "-wal", "-shm", "-journal"].contains(where: { target == live + $0 }) {
            throw Refusal("\(destination) is the live database (or one of its files); a backup goes to another file")
        }
    }
}
