import Foundation
import Synchronization
import WalletWatchCore

/// Where commands print: data on stdout, warnings and errors on stderr.
enum Output {
    /// Prints a line on stdout.
    static func line(_ text: String = "") {
        print(text)
    }

    /// Prints one JSON document on stdout.
    static func json(_ value: JSONValue) {
        print(value.pretty)
    }

    /// Prints `warning: ...` on stderr, once per process: one command may reach the same
    /// warning along two paths (the plan and the status both ask for rates), and saying it
    /// again tells the user nothing new.
    static func warning(_ text: String) {
        guard warned.withLock({ $0.insert(text).inserted }) else { return }
        standardError("warning: \(text)")
    }

    private static let warned = Mutex<Set<String>>([])

    /// Prints `error: ...` on stderr.
    static func error(_ text: String) {
        standardError("error: \(text)")
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
