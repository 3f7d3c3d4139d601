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
    static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw UsageError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        handle.write(Data(text.utf8))
    }
}
