#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WalletWatchCore

/// One daemon per database (SPEC.md section 24): `run` and `serve` hold an exclusive lock on
/// the database file itself for as long as they run, so that every path to it (a hard link, a
/// symlink, another spelling of the folder) finds the lock. Two daemons on one database would
/// each deliver the outbox, sending half the webhooks twice.
///
/// The lock is `flock(2)`'s, which the kernel drops when the process ends however it ends
/// (SIGKILL, a crash, a power cut), and which SQLite's own locks (POSIX `fcntl` locks) never
/// meet. Its descriptor is never closed: closing any descriptor of the database file would
/// drop this process's POSIX locks on it, SQLite's included, so the lock lasts until the
/// process exits (only the daemon, which exits when done, takes it). Beside the database,
/// `<database>.daemon.lock` is locked too and carries the holder's pid and command for the
/// refusal's message (a stale one never matters: the database's lock decides). One-shot
/// commands never take either.
public final class DaemonLock: Sendable {
    /// The lock file's path (the pid and command of the holder).
    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// The lock file of the database at `databasePath`.
    public static func path(forDatabase databasePath: String) -> String {
        databasePath + ".daemon.lock"
    }

    /// Takes the lock for `command` (`run` or `serve`) or refuses at once, naming the pid of
    /// the daemon that holds it. Taken before the database is opened (a second daemon must not
    /// even open it: through a hard link, SQLite would keep a write-ahead log of its own); a
    /// database that does not exist yet is created empty, with mode 0600, as the store would.
    public static func acquire(database databasePath: String, command: String) throws -> DaemonLock {
        let database = open(databasePath, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard database >= 0 else {
            throw DaemonLockError.cannotOpen(path: databasePath, reason: String(cString: strerror(errno)))
        }
        guard flock(database, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            guard reason == EWOULDBLOCK else { throw DaemonLockError.cannotOpen(path: databasePath, reason: String(cString: strerror(reason))) }
            throw DaemonLockError.held(database: databasePath, holder: holder(of: database, besidePath: path(forDatabase: databasePath)))
        }
        let path = path(forDatabase: databasePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DaemonLockError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        // A daemon of an older walletwatch locks only this file: still one daemon at a time.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = readHolder(descriptor)
            close(descriptor)
            throw DaemonLockError.held(database: databasePath, holder: holder)
        }
        let text = Array("\(getpid()) \(command)\n".utf8)
        // The pid is for messages only: a failure to write it does not matter to the lock.
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return DaemonLock(path: path, descriptor: descriptor)
    }

    /// "pid 1234, walletwatch run": the process whose flock holds the database open as
    /// `descriptor`, found in /proc/locks by the file's device and inode (a holder that
    /// reached it through another path wrote its pid beside that path, not this one); its
    /// command from the lock file beside this path when that names the same pid, else from
    /// its command line. Nil when it cannot be told.
    private static func holder(of descriptor: Int32, besidePath: String) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let device = UInt64(status.st_dev)
        // glibc's major() and minor(); /proc/locks prints them in hex, the inode in decimal.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let identity = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(status.st_ino))
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", fields[5] == identity, let pid = Int32(fields[4]) else { continue }
            let beside = open(besidePath, O_RDONLY | O_CLOEXEC)
            if beside >= 0 {
                defer { close(beside) }
                if let written = readHolder(beside), written.hasPrefix("pid \(pid),") { return written }
            }
            let arguments = ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()).split(separator: 0)
            return arguments.count > 1 ? "pid \(pid), walletwatch \(String(decoding: arguments[1], as: UTF8.self))" : "pid \(pid)"
        }
        return nil
    }

    /// "pid 1234, walletwatch run", as the holder wrote it; nil when it has not written it yet.
    private static func readHolder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = text.split(separator: " ")
        guard let pid = parts.first.flatMap({ Int32($0) }), pid > 0 else { return nil }
        return parts.count > 1 ? "pid \(pid), walletwatch \(parts[1])" : "pid \(pid)"
    }

    deinit {
        // Closing the lock file's descriptor releases its lock; the database's stays until exit.
        close(descriptor)
    }
}

/// Why a daemon could not take the database's lock.
public enum DaemonLockError: Classified, Equatable {
    /// Another daemon holds it.
    case held(database: String, holder: String?)
    /// The lock file cannot be opened or locked.
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .held(let database, let holder):
            "another walletwatch daemon (\(holder ?? "its pid not written yet")) is already running on \(database); only one run or serve may use a database: stop that one first"
        case .cannotOpen(let path, let reason):
            "cannot lock \(path) to run the daemon: \(reason)"
        }
    }

    public var kind: ErrorKind { .runtime }
}
