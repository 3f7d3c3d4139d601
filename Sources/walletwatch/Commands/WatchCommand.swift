import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "The live execution progress view in the terminal.",
        discussion: """
            Goals with planned, contributed and remaining and a bar; the month's total in the
            display currency with the age of its rates; each asset's balance with its age and
            pending amount; the last ingest of each source; the latest transactions and tags.
            It redraws within 2 s of any change to the database, by any process (run `walletwatch
            run` or `ingest` elsewhere), and on resize. q or Ctrl-C leaves and restores the
            terminal. Without a terminal it prints a plain frame on every change; --once prints
            one and exits.

            Examples:
              walletwatch watch
              walletwatch watch --once > status.txt
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print one frame and exit.") var once = false

    func run() async throws {
        let context = try CommandContext.load(global)
        let engine = context.engine
        if once {
            Output.lines(TerminalDashboard.render(try await engine.liveView.dashboard(), width: Terminal.width() ?? 100))
            return
        }
        Signals.unblock()
        let interactive = isatty(STDOUT_FILENO) == 1
        let screen = interactive ? FullScreen() : nil
        defer { screen?.restore() }
        let events = WatchEvents(engine: engine, interactive: interactive)
        for await _ in events.stream {
            let frame = TerminalDashboard.render(try await engine.liveView.dashboard(refreshRates: .never), width: Terminal.width() ?? 100)
            if let screen {
                screen.draw(frame)
            } else {
                // Unbuffered, so that a log or a pipe gets each frame when it is drawn.
                Output.frame(frame)
            }
        }
    }
}
