import Foundation
import Synchronization
import WalletWatchCore

/// Where commands print: data on stdout, warnings and errors on stderr. Everything a command
/// prints goes through here, and here every control character of a name, a note, a txid or an
/// error text is shown as its escape (`\u{1b}`, see ``DisplaySafety``), so that a string stored
/// from a hostile source cannot drive the user's terminal. A line is one line: a line break
/// inside it is escaped too, so multi-line output (tables, frames) is handed over as lines.
/// JSON is printed exactly: its encoder already writes every such character as `\uXXXX`.
///
/// Every write is checked (``StandardStream``): when stdout fails the command ends at once with
/// one `error:` line and exit 1; when stderr fails it goes on and exits 1 (``finish(_:)``).
enum Output {
    /// Prints one line on stdout.
    static func line(_ text: String = "") {
        standardOutput(DisplaySafety.escaped(text) + "\n")
    }

    /// Prints each of `lines` as one line on stdout.
    static func lines(_ lines: [String]) {
        for text in lines { line(text) }
    }

    /// Prints one JSON document on stdout.
    static func json(_ value: JSONValue) {
        standardOutput(value.pretty + "\n")
    }

    /// Prints a multi-line text whose line breaks are its own (ArgumentParser's help).
    static func text(_ text: String) {
        standardOutput(DisplaySafety.escaped(text, keepingLineBreaks: true) + "\n")
    }

    /// Writes a data file to stdout (CSV, BIP-329 lines) byte for byte, as it would be written to
    /// a file, so that a pipe gets the exact data; on a terminal it is shown escaped like any
    /// other text, line breaks kept.
    static func data(_ text: String) {
        let shown = isatty(STDOUT_FILENO) == 1 ? DisplaySafety.escaped(text, keepingLineBreaks: true) : text
        standardOutput(shown)
    }

    /// Writes `lines` and a blank line to stdout at once, unbuffered (a frame of `watch` into a
    /// pipe or a log).
    static func frame(_ lines: [String]) {
        standardOutput(lines.map { DisplaySafety.escaped($0) }.joined(separator: "\n") + "\n\n", now: true)
    }

    /// Redraws the whole terminal with `lines` (the live `watch`), unbuffered.
    static func screen(_ lines: [String]) {
        control(.home)
        standardOutput(lines.map { DisplaySafety.escaped($0) }.joined(separator: "\r\n"), now: true)
    }

    /// walletwatch's own control sequences for the live terminal view: the only control
    /// characters that reach stdout unescaped, and none of them comes from data.
    enum Control: String {
        /// The alternate screen, without a cursor.
        case enterFullScreen = "\u{1B}[?1049h\u{1B}[?25l"
        /// Back to the normal screen, with the cursor.
        case leaveFullScreen = "\u{1B}[?25h\u{1B}[?1049l"
        /// The cursor to the top left, the screen cleared.
        case home = "\u{1B}[H\u{1B}[2J"
    }

    /// Writes one of walletwatch's own control sequences to stdout, unbuffered.
    static func control(_ sequence: Control) {
        standardOutput(sequence.rawValue, now: true)
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

    /// Prints one line on stderr.
    static func standardError(_ text: String) {
        StandardStream.error.write(DisplaySafety.escaped(text) + "\n")
    }

    /// Writes raw text on stderr, unescaped (the progress bar's own control sequences).
    static func standardErrorText(_ text: String) {
        StandardStream.error.write(text)
    }

    /// Hands `text` to stdout; when stdout has failed, nothing will ever reach its reader, so
    /// the command ends here (as SIGPIPE would have ended it, but with a reason and exit 1).
    private static func standardOutput(_ text: String, now: Bool = false) {
        guard StandardStream.output.write(text, now: now) else { endAfterOutputFailure() }
    }

    /// Reports the failure of stdout on stderr (when stderr still works) and exits 1 at once:
    /// without running exit handlers, since other threads may still be at work, and with
    /// nothing left to flush (stderr is unbuffered and stdout has failed).
    static func endAfterOutputFailure() -> Never {
        if let failure = StandardStream.output.failureDescription { error(failure) }
        _exit(1)
    }

    /// Ends the process with `code` once stdout is flushed; exit 1 instead when a write to stdout
    /// or stderr failed at any point (the user did not get everything the command printed).
    static func finish(_ code: Int32) -> Never {
        guard StandardStream.output.flush() else { endAfterOutputFailure() }
        exit(StandardStream.error.failure == nil ? code : 1)
    }
}
