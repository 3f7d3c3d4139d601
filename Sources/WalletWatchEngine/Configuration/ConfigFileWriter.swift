import Foundation
import WalletWatchCore

/// The config file could not be replaced; it is as it was.
public struct ConfigWriteError: Classified, Equatable {
    public let file: String
    public let reason: String
    public var description: String { "config \(file): \(reason)" }
    public var kind: ErrorKind { .runtime }
}

/// Replaces a config file's bytes so that a reader (or a crash, or a full disk) only ever
/// sees the old file or the new one, never a part of either: the new bytes go to a temporary
/// file in the same folder (same file system) with the old file's mode and owner, are synced
/// to disk, and the temporary file is then renamed over the config (rename(2) is atomic), and
/// the folder synced so that the rename itself survives a power cut.
///
/// Two writers are kept apart by a lock on the folder, and a writer only replaces the bytes
/// it read: a config changed by anything else meanwhile (an editor, another `source add`) is
/// refused instead of overwritten.
enum ConfigFileWriter {
    /// Replaces the file at `path`, which must still hold exactly `expected`, with `bytes`.
    /// A symbolic link is followed: the file it points to is replaced, the link stays.
    static func replace(_ path: String, expected: [UInt8], with bytes: [UInt8]) throws(ConfigWriteError) {
        let target = (path as NSString).resolvingSymlinksInPath
        let folder = (target as NSString).deletingLastPathComponent
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw failure(path, "its folder \(folder) cannot be opened (\(errnoText()))") }
        defer { close(directory) }
        guard flock(directory, LOCK_EX) == 0 else { throw failure(path, "its folder cannot be locked (\(errnoText()))") }
        defer { flock(directory, LOCK_UN) }

        guard let current = FileManager.default.contents(atPath: target) else {
            throw failure(path, "cannot be read any more; nothing was changed")
        }
        guard Array(current) == expected else {
            throw failure(path, "was changed by something else while this command ran; nothing was written: run it again")
        }
        var info = stat()
        guard stat(target, &info) == 0 else { throw failure(path, "cannot be examined (\(errnoText()))") }

        let name = (target as NSString).lastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path, "no temporary file can be made beside it (\(errnoText())); nothing was changed") }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        // The old file's owner (when this process may give it: as root, a service user's config
        // stays readable by the service) and its mode, exactly; umask does not apply to fchmod.
        if info.st_uid != geteuid() || info.st_gid != getegid() { _ = fchown(descriptor, info.st_uid, info.st_gid) }
        var problem: String?
        if fchmod(descriptor, info.st_mode & 0o7777) != 0 {
            problem = "its mode cannot be kept (\(errnoText()))"
        } else if let error = bytes.withUnsafeBytes({ writeAll($0, to: descriptor) }) {
            problem = "the new text cannot be written (\(String(cString: strerror(error))))"
        } else if fsync(descriptor) != 0 {
            problem = "the new text cannot be synced to disk (\(errnoText()))"
        }
        if close(descriptor) != 0, problem == nil { problem = "the new text cannot be written (\(errnoText()))" }
        if let problem { throw failure(path, "\(problem); nothing was changed") }

        TestHooks.holdBeforeRename(temporary)

        guard rename(temporary, target) == 0 else { throw failure(path, "cannot be replaced (\(errnoText())); nothing was changed") }
        renamed = true
        // The rename is done; a folder that cannot be synced only leaves it to the kernel.
        _ = fsync(directory)
    }

    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    private static func failure(_ path: String, _ reason: String) -> ConfigWriteError {
        ConfigWriteError(file: path, reason: reason)
    }
}

/// Places where a test stops the process on purpose. Compiled into debug builds only (the ones
/// the tests run); a release build has none of them, whatever its environment says.
enum TestHooks {
    /// The environment variable naming a file to create when a config's new text is written and
    /// synced but not yet renamed over the config; the process then waits there until it is
    /// killed, so that a test can kill it exactly between the write and the rename.
    static let holdBeforeRenameKey = "WALLETWATCH_TEST_HOLD_BEFORE_RENAME"

    static func holdBeforeRename(_ temporary: String) {
        #if DEBUG
        guard let marker = ProcessInfo.processInfo.environment[holdBeforeRenameKey], !marker.isEmpty else { return }
        _ = FileManager.default.createFile(atPath: marker, contents: Data(temporary.utf8))
        while true { sleep(60) }
        #endif
    }
}
