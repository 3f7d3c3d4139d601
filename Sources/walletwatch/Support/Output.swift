import Foundation
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

    /// Prints `warning: ...` on stderr.
    static func warning(_ text: String) {
        standardError("warning: \(text)")
    }

    /// Prints `error: ...` on stderr.
    static func error(_ text: String) {
        standardError("error: \(text)")
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
