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
            Goals with planned, contributed and remaining and a bar; the month's total in the \
            display currency with the age of its rates; each asset's balance with its age and \
            pending amount; the last ingest of each source; the latest transactions and tags. \
            It redraws within 2 s of any change to the database, by any process (run `walletwatch \
            run` or `ingest` elsewhere), and on resize. q or Ctrl-C leaves and restores the \
            terminal. Without a terminal it prints a plain frame on every change; --once prints \
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

/// What makes `watch` redraw: database changes, resizes, a tick for the ages, fresh rates; it
/// ends on SIGINT, SIGTERM, or q. Rates are refreshed here, beside the redraws, so that a slow
/// or failing price API never holds a frame up.
final class WatchEvents: @unchecked Sendable {
    let stream: AsyncStream<Void>
    private var sources: [DispatchSourceSignal] = []
    private var tasks: [Task<Void, Never>] = []

    init(engine: Engine, interactive: Bool) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.stream = stream
        tasks.append(Task {
            for await _ in engine.liveView.changes() { continuation.yield() }
        })
        tasks.append(Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(30))
                continuation.yield()
            }
        })
        tasks.append(Task {
            while !Task.isCancelled {
                _ = try? await engine.month.status(refreshRates: .ifNeeded)
                continuation.yield()
                try? await Task.sleep(for: .seconds(engine.config.rates.maxAgeSeconds))
            }
        })
        for (signal, ends) in [(SIGINT, true), (SIGTERM, true), (SIGHUP, true), (SIGWINCH, false)] {
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal)
            source.setEventHandler {
                if ends { continuation.finish() } else { continuation.yield() }
            }
            source.resume()
            sources.append(source)
        }
        if interactive {
            // q quits; the terminal is in raw mode, so a key arrives at once. A thread of its
            // own: a read that blocks must not hold one of Swift's few cooperative threads.
            Thread {
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) == 1 {
                    if byte == UInt8(ascii: "q") || byte == 3 { continuation.finish(); return }
                }
            }.start()
        }
        continuation.onTermination = { [tasks] _ in tasks.forEach { $0.cancel() } }
    }
}

/// The alternate screen of a terminal: entered at start, left (with the cursor and input mode
/// restored) on exit, whatever the exit.
final class FullScreen {
    private var saved = termios()
    private var restored = false

    init() {
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        Output.control(.enterFullScreen)
    }

    func draw(_ lines: [String]) {
        Output.screen(Array(lines.prefix(Terminal.height() ?? lines.count)))
    }

    func restore() {
        guard !restored else { return }
        restored = true
        Output.control(.leaveFullScreen)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    deinit { restore() }
}

/// The size of the terminal stdout is attached to.
enum Terminal {
    static func width() -> Int? { size()?.ws_col.nonZero }
    static func height() -> Int? { size()?.ws_row.nonZero }

    private static func size() -> winsize? {
        var size = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 ? size : nil
    }
}

extension UInt16 {
    fileprivate var nonZero: Int? { self == 0 ? nil : Int(self) }
}

/// The dashboard as text lines fitted to a width (the same figures as the web page).
enum TerminalDashboard {
    static func render(_ dashboard: Dashboard, width: Int) -> [String] {
        let zone = TimeZone(identifier: dashboard.timeZone) ?? TimeZone(identifier: "UTC")!
        let status = dashboard.status
        var lines: [String] = []
        var header = "walletwatch · \(status.month) \(status.state.rawValue)"
        if let started = status.startedAt { header += " since \(Display.time(started, zone))" }
        if let asOf = status.ratesAsOf {
            header += " · rates of \(Display.age(seconds: dashboard.now.seconds(since: asOf))) ago\(status.ratesStale ? " (stale)" : "")"
        }
        if !status.missingRates.isEmpty { header += " · no rate for \(status.missingRates.map(\.description).joined(separator: ", "))" }
        lines.append(header)
        lines.append("")

        let barWidth = max(10, min(30, width - 70))
        var goals = TextTable([.init("GOAL"), .init("PROGRESS"), .init("PLANNED", .right), .init("CONTRIBUTED", .right), .init("REMAINING", .right)])
        for goal in status.goals {
            let money = { (minor: Int64) in Display.money(minor, goal.currency) }
            goals.add([goal.name, ProgressBar.render(goal.figures.contributed, of: goal.figures.planned, width: barWidth),
                       money(goal.figures.planned), money(goal.figures.contributed), money(goal.figures.remaining)])
        }
        let display = status.displayCurrency
        let total = { (minor: Int64?) in minor.map { Display.money($0, display) } ?? "no rate" }
        goals.add(["TOTAL (\(display.code))", ProgressBar.render(status.contributedDisplay ?? 0, of: status.plannedDisplay ?? 0, width: barWidth),
                   total(status.plannedDisplay), total(status.contributedDisplay), total(status.remainingDisplay)])
        lines.append(contentsOf: status.goals.isEmpty ? ["no goals in this month's plan"] : goals.render())
        lines.append("")

        var assets = TextTable([.init("ASSET"), .init("BALANCE", .right), .init("PENDING", .right), .init("AGE", .right)])
        for overview in dashboard.assets {
            let asset = overview.asset
            assets.add([asset.name, Display.money(overview.balance.counted, asset.currency),
                        overview.balance.pending == 0 ? "-" : Display.money(overview.balance.pending, asset.currency),
                        overview.balance.lastUpdated.map { Display.age(seconds: dashboard.now.seconds(since: $0)) } ?? "-"])
        }
        lines.append(contentsOf: assets.render())
        lines.append("")

        for source in dashboard.sources {
            guard let run = source.lastRun else {
                lines.append("source \(source.name): not ingested yet")
                continue
            }
            let ago = Display.age(seconds: dashboard.now.seconds(since: run.finishedAt))
            lines.append(run.ok
                ? "source \(source.name): ok \(ago) ago (+\(run.counts.new) new, \(run.counts.updated) updated)"
                : "source \(source.name): FAILED \(ago) ago: \(run.error ?? "")")
        }
        if !dashboard.sources.isEmpty { lines.append("") }

        var latest = TextTable([.init("DATE"), .init("ASSET"), .init("AMOUNT", .right), .init("STATUS"), .init("TAGS")])
        for listing in dashboard.latest {
            latest.add([Display.time(listing.transaction.date, zone), listing.assetName, listing.money.description,
                        listing.transaction.status.rawValue, listing.tags.joined(separator: ", ")])
        }
        lines.append(contentsOf: dashboard.latest.isEmpty ? ["no transactions yet"] : latest.render())
        return lines.map { fit($0, width) }
    }

    /// A line cut to the terminal's width, as ``Output`` will print it (a control character
    /// takes the width of its escape).
    static func fit(_ line: String, _ width: Int) -> String {
        guard DisplayWidth.of(line) > width else { return line }
        var result = ""
        var used = 0
        for character in line {
            let next = DisplayWidth.of(String(character))
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }
}
