import Foundation
import Synchronization
import WalletWatchCore
import WalletWatchNet

/// The progress line of a first pass (`source add`): on stderr, when it is a terminal and the
/// output is not JSON, redrawn in place every half second with the time so far and the HTTP
/// requests made (`first pass of 'cold': 4 s, 38 requests`), and ended by `finish()`.
final class PassProgress: Sendable {
    private let label: String
    private let http: any HTTPClient
    private let enabled: Bool
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(sources: [String], http: any HTTPClient, wanted: Bool) {
        label = "first pass of " + sources.map { "'\($0)'" }.joined(separator: ", ")
        self.http = http
        enabled = wanted && isatty(STDERR_FILENO) == 1
    }

    /// Starts redrawing.
    func start() {
        guard enabled else { return }
        let started = ContinuousClock.now
        let baseline = http.statistics.requests
        let (label, http) = (self.label, self.http)
        task.withLock {
            $0 = Task {
                while !Task.isCancelled {
                    let seconds = (ContinuousClock.now - started).components.seconds
                    let requests = http.statistics.requests - baseline
                    let made = requests == 0 ? "" : requests == 1 ? ", 1 request" : ", \(requests) requests"
                    Output.standardErrorText("\r\u{1B}[2K" + DisplaySafety.escaped("\(label): \(seconds) s" + made))
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
        }
    }

    /// Stops redrawing (waiting for a redraw under way) and clears the line.
    func finish() async {
        guard enabled, let running = task.withLock({ $0 }) else { return }
        running.cancel()
        await running.value
        Output.standardErrorText("\r\u{1B}[2K")
    }
}
