import Foundation
import Synchronization
import Testing
import TestSupport
import WalletWatchSim
@testable import WalletWatchEngine

/// The daemon's Arkade watcher (SPEC.md section 27): a lost stream is opened again after a
/// pause that doubles (1, 2, 4... 60 s), and every opening wakes a pass that compares the VTXOs
/// again, so nothing that arrived while no stream was open is missed.
@Suite struct ArkadeWatcherTests {
    @Test func thePauseDoublesUpToAMinuteAndASteadyStreamStartsItAgain() {
        var failures = 0
        var pauses: [Int] = []
        for _ in 0..<9 {
            failures = ArkadeWatcher.failures(after: failures, lasted: .seconds(2), steadyAfter: .seconds(60))
            pauses.append(ArkadeWatcher.pause(failures: failures))
        }
        #expect(pauses == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(ArkadeWatcher.failures(after: 7, lasted: .seconds(61), steadyAfter: .seconds(60)) == 1)
        #expect(ArkadeWatcher.pause(failures: 1) == 1)
    }

    /// Both streams end twice (the simulator's `stream_ends` fault); the watcher logs each loss
    /// in one line, opens them again, and each opening woke a pass.
    @Test(arguments: ["arkade", "ark-watch"])
    func aLostStreamIsOpenedAgainAndWakesAPass(source name: String) async throws {
        let world = try await SimulatedWorld(scenario: ArkadeIngestTests.scenario())
        let watched = try await ArkadeIngestTests.watchedAddress(world)
        try await world.simulator.arkadeReceive(address: watched, amount: 2_000)
        let engine = world.engine(sources: try ArkadeIngestTests.sources(world, watched: watched))
        let source = try #require(engine.config.sources.first { $0.name == name })
        await world.simulator.setArkadeFault(ArkadeFault(.streamEnds, times: 2))

        let wakeup = Wakeup()
        let woken = Counter()
        let watcher = ArkadeWatcher(source: source, clients: engine.clients, logger: engine.logger)
        let stop = Flag()
        let running = Task { await watcher.run(wakeup: wakeup, stopping: { stop.value }) }
        let counting = Task {
            while !Task.isCancelled {
                await wakeup.wait(for: .seconds(600))
                guard !Task.isCancelled else { break }
                woken.add()
            }
        }
        defer { stop.set(); running.cancel(); counting.cancel() }

        // Two streams ended at once (pauses of 1 and 2 s), the third stays open.
        let reopened = await eventually(within: .seconds(30)) { await world.simulator.arkadeStreamCount() == 1 && woken.value >= 3 }
        let open = await world.simulator.arkadeStreamCount()
        #expect(reopened, "streams open: \(open), passes woken: \(woken.value)")
        let losses = world.logs.entries.filter { $0.message == "notification stream lost; reopening" }
        #expect(losses.count == 2)
        #expect(losses.map { $0.metadata["retry_in_s"]?.description } == ["1", "2"])
        #expect(losses.allSatisfy { !$0.text.contains("\n") && ($0.metadata["error"]?.description.contains("stream ended") ?? false) })

        // The open stream wakes a pass when the source's VTXOs change.
        let before = woken.value
        if name == "arkade" {
            try await world.simulator.arkadeReceive(wallet: "arkade", amount: 1_000)
        } else {
            try await world.simulator.arkadeReceive(address: watched, amount: 1_000)
        }
        #expect(await eventually(within: .seconds(10)) { woken.value > before })
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    final class Flag: Sendable {
        private let flag = Mutex(false)
        func set() { flag.withLock { $0 = true } }
        var value: Bool { flag.withLock { $0 } }
    }
}
