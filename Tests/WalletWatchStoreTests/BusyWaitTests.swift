import Foundation
import GRDB
import Synchronization
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

/// A write of walletwatch beside another writer that holds the lock in long pieces with little
/// time between them, as an ingest of a long history writes (a piece of 4,096 rows after
/// another). SQLite's own busy timeout sleeps up to 100 ms between tries and keeps waking while
/// the next piece holds the lock; walletwatch's busy handler tries every millisecond.
@Suite struct BusyWaitTests {
    /// Another process's writer: transactions of `hold`, `gap` apart, until told to stop.
    final class PiecewiseWriter: Sendable {
        let pieces = Atomic<Int>(0)
        /// True while a transaction holds the lock.
        let holding = Atomic<Bool>(false)
        private let stopped = Atomic<Bool>(false)
        /// Signalled by `stop()`, to end a transaction early.
        private let wake = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)

        init(path: String, hold: Duration, gap: Duration) throws {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            Thread { [self] in
                while !stopped.load(ordering: .relaxed) {
                    try! queue.inDatabase { db in
                        try db.execute(sql: "BEGIN IMMEDIATE")
                        holding.store(true, ordering: .sequentiallyConsistent)
                        _ = wake.wait(timeout: .now() + hold.seconds)
                        holding.store(false, ordering: .sequentiallyConsistent)
                        try db.execute(sql: "COMMIT")
                    }
                    pieces.add(1, ordering: .relaxed)
                    Thread.sleep(forTimeInterval: gap.seconds)
                }
                done.signal()
            }.start()
        }

        /// Ends the transaction under way and the thread; call once.
        func stop() {
            stopped.store(true, ordering: .relaxed)
            wake.signal()
            done.wait()
        }
    }

    @Test("writes beside a writer whose 150 ms transactions follow each other 1 ms apart get in, rather than timing out")
    func writesGetInBetweenPieces() async throws {
        let folder = TemporaryDirectory()
        let path = folder.file("walletwatch.sqlite")
        let database = try AppDatabase.open(path: path, busyTimeoutSeconds: 4)
        let other = try PiecewiseWriter(path: path, hold: .milliseconds(150), gap: .milliseconds(1))
        defer { other.stop() }
        while other.pieces.load(ordering: .relaxed) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        // With SQLite's busy timeout (tries ever further apart, then every 100 ms) a try lands in
        // a 1 ms gap about once in 150: one such write in four seconds succeeds about one time
        // in four, three in a row about one time in fifty.
        for index in 1...3 {
            _ = try database.createTag(name: "beside \(index)", colorHex: nil, emoji: nil, now: .at("2026-11-21T12:00:00Z"))
        }
        #expect(try database.tagSummaries().count == 3)
    }

    @Test("with no time to wait, a write beside a held lock fails as locked without waiting, and nothing is written")
    func noPatienceFailsAtOnce() async throws {
        let folder = TemporaryDirectory()
        let path = folder.file("walletwatch.sqlite")
        let database = try AppDatabase.open(path: path, busyTimeoutSeconds: 0)
        // One transaction of a minute (ended by stop()): had the write waited, it would have
        // got in at the next gap.
        let other = try PiecewiseWriter(path: path, hold: .seconds(60), gap: .milliseconds(1))
        defer { other.stop() }
        while !other.holding.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(5)) }
        let error = #expect(throws: (any Error).self) {
            _ = try database.createTag(name: "refused", colorHex: nil, emoji: nil, now: .at("2026-11-21T12:00:00Z"))
        }
        #expect("\(error.map { String(describing: $0) } ?? "")".contains("locked"), "\(String(describing: error))")
        #expect(try database.tagSummaries().isEmpty)
    }
}

private extension Duration {
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
