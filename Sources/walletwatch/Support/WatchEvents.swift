import Foundation
import WalletWatchEngine

/// What makes `watch` redraw: database changes, resizes, a tick for the ages, fresh rates; it
/// ends on SIGINT, SIGTERM, or q. Rates are refreshed here, beside the redraws, so that a slow
/// or failing price API never holds a frame up.
///
/// Unchecked Sendable: every property is set once, in `init`, and never changes; the signal
/// sources are only kept so that they stay alive as long as the view.
final class WatchEvents: @unchecked Sendable {
    let stream: AsyncStream<Void>
    private let sources: [DispatchSourceSignal]
    private let tasks: [Task<Void, Never>]

    init(engine: Engine, interactive: Bool) {
        var sources: [DispatchSourceSignal] = []
        var tasks: [Task<Void, Never>] = []
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
        self.sources = sources
        self.tasks = tasks
    }
}
