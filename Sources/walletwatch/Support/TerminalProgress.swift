import Foundation

/// A one-line progress bar on stderr (`[##########----------] 120/365 days`), redrawn in place.
/// Drawn only when stderr is a terminal: a pipe, a log file or a script reading `--json` gets
/// none of it.
struct TerminalProgress: Sendable {
    /// Whether anything is drawn.
    let enabled: Bool
    /// What is counted (`days`).
    let unit: String
    static let width = 30

    /// A bar that draws when stderr is a terminal and `wanted` (not `--json`).
    init(unit: String, wanted: Bool = true) {
        self.unit = unit
        enabled = wanted && isatty(STDERR_FILENO) == 1
    }

    /// The bar's text for `done` of `total`.
    static func text(done: Int, total: Int, unit: String) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] \(done)/\(total) \(unit)"
    }

    /// Redraws the bar at `done` of `total`.
    func update(done: Int, total: Int) {
        guard enabled else { return }
        Output.standardErrorText("\r\u{1B}[2K" + Self.text(done: done, total: total, unit: unit))
    }

    /// Ends the bar's line, so that what follows starts on its own.
    func finish() {
        guard enabled else { return }
        Output.standardErrorText("\n")
    }
}
