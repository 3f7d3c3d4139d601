import ArgumentParser
import Foundation
import WalletWatchCore

/// The one place where errors become exit codes and the `error: ` line on stderr
/// (CLI.md: 64 usage, 65 refused input, 1 runtime failure).
enum ErrorReport {
    static func exitCode(for kind: ErrorKind) -> Int32 {
        switch kind {
        case .usage: 64
        case .refused: 65
        case .runtime: 1
        }
    }

    /// Reports an error from parsing the command line or from running a command, and returns
    /// the exit code. walletwatch's own errors carry their kind; everything else (usage errors,
    /// help and version requests, `ExitCode`) is ArgumentParser's to describe.
    static func failure(_ error: any Error, command: WalletWatch.Type) -> Int32 {
        if let classified = error as? any Classified {
            return report(classified.description, code: exitCode(for: classified.kind))
        }
        let code = command.exitCode(for: error)
        if code == .success {
            // --help, help <command>, --version: ArgumentParser's text on stdout.
            Output.text(command.fullMessage(for: error))
            return 0
        }
        let message = command.message(for: error)
        guard !message.isEmpty else { return code.rawValue }
        return report(message, code: code.rawValue)
    }

    /// Prints `error: <message>` as one line on stderr and returns `code`.
    static func report(_ message: String, code: Int32) -> Int32 {
        Output.error(oneLine(message))
        return code
    }

    /// The message on one line, starting in lower case like every walletwatch error. Only
    /// line feeds break lines here: any other control character (a carriage return in a txid)
    /// is part of what the message names, and ``Output`` shows it escaped.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("Usage:") && !$0.hasPrefix("See '") && !$0.hasPrefix("Help:") }
        var text = lines.joined(separator: "; ")
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        if let first = text.first, first.isUppercase, !(text.dropFirst().first?.isUppercase ?? false) {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }
}
