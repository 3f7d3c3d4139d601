import Foundation
import WalletWatchCore

/// A file the user names on the command line to import.
enum InputFile {
    /// Its text (UTF-8); one that cannot be read is the user's input refused by name (exit 64).
    static func text(_ path: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UsageError("cannot read \(path): \(error.localizedDescription)")
        }
    }
}

/// Files walletwatch writes with the user's private data: created with mode 0600.
enum PrivateFile {
    /// Creates or truncates `path` (mode 0600) and writes `text` to it, every write checked: a
    /// full disk is an error naming the file, never a silently truncated export.
    static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw UsageError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        try fill(descriptor, with: text, path: path)
    }

    /// Writes all of `text` to `descriptor` and closes it. On a regular file the data are also
    /// synced: a file system that allocates late (ext4, XFS) reports a full disk only then.
    static func fill(_ descriptor: Int32, with text: String, path: String) throws {
        var failure = Array(text.utf8).withUnsafeBytes { DescriptorWrite.all($0, to: descriptor) }
        var status = stat()
        if failure == nil, fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, fsync(descriptor) != 0 {
            failure = errno
        }
        if close(descriptor) != 0, failure == nil, errno != EINTR { failure = errno }
        if let failure {
            throw FileWriteError(path: path, reason: String(cString: strerror(failure)))
        }
    }
}

/// A file the command writes could not be written whole (exit 1); what it holds is incomplete.
struct FileWriteError: Classified, Equatable {
    let path: String
    let reason: String
    var description: String { "could not write \(path): \(reason); what it holds is incomplete" }
    var kind: ErrorKind { .runtime }
}
