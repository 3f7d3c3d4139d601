import Foundation
import Synchronization

/// Warns about secret files (barkd's `token_file`, the web view's `token_file`, a webhook's
/// `secret_file`) that users other than their owner may read or change, once per file for the
/// life of the process: the daemon reads a token on every pass, and one warning says it all.
/// The file is still used: refusing it would stop a running setup over a warning.
public final class SecretFileWarnings: Sendable {
    private let warned = Mutex<Set<String>>([])
    private let sink: @Sendable (String) -> Void

    /// Warnings go to `sink` (the command line prints them as `warning:` lines).
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Checks the permissions of the secret file at `path`, named `what` in the warning
    /// (`token_file`), and warns unless this process warned about that file before.
    public func check(_ path: String, what: String) {
        guard let problem = Self.problem(path, what: what) else { return }
        guard warned.withLock({ $0.insert(path).inserted }) else { return }
        sink(problem)
    }

    /// What is wrong with the permissions of the secret file at `path`: a one-line warning
    /// naming the file and the fix when its group or others have any permission on it (reading
    /// leaks the secret, writing lets them choose it), else nil. A file that cannot be examined
    /// gives nil: reading it will fail with the reason.
    public static func problem(_ path: String, what: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 != 0 else { return nil }
        let access = [mode & 0o044 != 0 ? "read" : nil, mode & 0o022 != 0 ? "changed" : nil].compactMap { $0 }.joined(separator: " and ")
        let octal = String(mode, radix: 8)
        return "\(what) \(path) can be \(access.isEmpty ? "used" : access) by other users (mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)); run chmod 600 \(path)"
    }
}
