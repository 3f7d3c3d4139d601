import Foundation

/// The lock every backup holds on its destination's folder while it writes there, so that the
/// next backup can tell what a killed one left behind.
///
/// A backup writes `NAME.partial` (and SQLite its `-journal`, for a moment `-wal` and `-shm`)
/// and renames it to NAME only once it is whole and checked. Killed midway, it leaves those
/// files, each as large as the database, and nothing ever finishes them. Each backup holds a
/// shared `flock` on the folder until it is done; the kernel drops it when the process dies,
/// however it dies. A backup that can take the lock exclusively first knows that no backup is
/// writing there, so every unfinished copy in the folder is a leftover, and removes it; then it
/// holds the lock shared like any other. When another backup is running, the sweep waits for
/// a later one. `flock` is independent of SQLite's own (POSIX) locks on the files.
struct BackupFolderLock {
    private let descriptor: Int32

    /// What an unfinished copy's files end with, after its destination's name.
    static let unfinishedSuffixes = [".partial", ".partial-journal", ".partial-wal", ".partial-shm"]

    /// Locks `folder` for a backup to `destination`, having first removed the unfinished copies
    /// of earlier backups (``isLeftover(_:destination:)``) if no backup is running there. Nil
    /// when the folder cannot be opened or locked (a file system without `flock`): the backup
    /// then goes on without sweeping.
    static func acquire(folder: String, destination: String) -> BackupFolderLock? {
        let folder = folder.isEmpty ? "." : folder
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            removeLeftovers(in: folder, destination: destination)
        }
        // From exclusive to shared, or waiting for a sweep in progress elsewhere (a few unlinks).
        guard flock(descriptor, LOCK_SH) == 0 else {
            close(descriptor)
            return nil
        }
        return BackupFolderLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Lets the folder go (the kernel also does when the process ends, however it ends).
    func release() {
        close(descriptor)
    }

    /// Whether `name` (in the destination's folder) is part of an unfinished copy that only a
    /// backup could have made: one of walletwatch's timestamped backups (`walletwatch-….sqlite`)
    /// or of this backup's own destination. Other files are never touched.
    static func isLeftover(_ name: String, destination: String) -> Bool {
        guard let suffix = unfinishedSuffixes.first(where: { name.hasSuffix($0) }) else { return false }
        let copy = String(name.dropLast(suffix.count))
        return copy == (destination as NSString).lastPathComponent || (copy.hasPrefix("walletwatch-") && copy.hasSuffix(".sqlite"))
    }

    private static func removeLeftovers(in folder: String, destination: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where isLeftover(name, destination: destination) {
            unlink((folder as NSString).appendingPathComponent(name))
        }
    }

    /// Removes the files of the unfinished copy of `destination` (after a failure).
    static func removeUnfinished(of destination: String) {
        for suffix in unfinishedSuffixes { unlink(destination + suffix) }
    }
}
