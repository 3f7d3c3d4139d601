#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WalletWatchCore

/// One daemon per database (SPEC.md section 24): `run` and `serve` hold an exclusive lock on a
/// file beside the database, `<database>.daemon.lock`, for as long as they run. Two daemons on
/// one database would each deliver the outbox, sending half the webhooks twice.
///
/// The lock is `flock(2)`'s, which the kernel drops when the process ends however it ends
/// (SIGKILL, a crash, a power cut): a stale lock file never keeps a daemon from starting, so
/// the file is left in place rather than removed (removing it would let a third process lock a
/// new file while the second still holds the old one). The holder writes its pid into it for
/// the refusal's message. One-shot commands never take the lock.
public final class DaemonLock: Sendable {
    /// The lock file's path.
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
    /// the daemon that holds it.
    public static func acquire(database databasePath: String, command: String) throws -> DaemonLock {
        let path = path(forDatabase: databasePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DaemonLockError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = readHolder(descriptor)
            close(descriptor)
            guard reason == EWOULDBLOCK else { throw DaemonLockError.cannotOpen(path: path, reason: String(cString: strerror(reason))) }
            throw DaemonLockError.held(database: databasePath, holder: holder)
        }
        let text = Array("\(getpid()) \(command)\n".utf8)
        // The pid is for messages only: a failure to write it does not matter to the lock.
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return DaemonLock(path: path, descriptor: descriptor)
    }

    /// "1234 run", as the holder wrote it; nil when it has not written it yet.
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
        // Closing the descriptor releases the lock.
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
