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
    /// Another process's writer: transactions of `hold` seconds, `gap` seconds apart, until told to stop.
    final class PiecewiseWriter: Sendable {
        /// True while a transaction holds the lock.
        let holding = Atomic<Bool>(false)
        private let stopped = Atomic<Bool>(false)
        /// Signalled by `stop()`, to end a transaction early.
        private let wake = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)

        init(path: String, hold: TimeInterval, gap: TimeInterval) throws {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            Thread { [self] in
                while !stopped.load(ordering: .relaxed) {
                    try! queue.inDatabase { db in
                        try db.execute(sql: "BEGIN IMMEDIATE")
                        holding.store(true, ordering: .sequentiallyConsistent)
                        _ = wake.wait(timeout: .now() + hold)
                        holding.store(false, ordering: .sequentiallyConsistent)
                        try db.execute(sql: "COMMIT")
                    }
                    Thread.sleep(forTimeInterval: gap)
                }
                done.signal()
            }.start()
        }

        /// Returns once a transaction of the writer holds the lock.
        func untilHolding() async throws {
            while !holding.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(2)) }
        }

        /// Ends the transaction under way and the thread; call once.
        func stop() {
            stopped.store(true, ordering: .relaxed)
            wake.signal()
            done.wait()
        }
    }

    /// A database in a fresh folder, and another writer on its file.
    struct Beside {
        let folder: TemporaryDirectory
        let database: AppDatabase
        let other: PiecewiseWriter
    }

    /// A database whose writes wait at most `patience` seconds, beside another writer on its
    /// file (transactions of `hold` seconds, 1 ms apart) that is inside its first transaction.
    static func besideAWriter(patience: Int, hold: TimeInterval) async throws -> Beside {
        let folder = TemporaryDirectory()
        let path = folder.file("walletwatch.sqlite")
        let database = try AppDatabase.open(path: path, busyTimeoutSeconds: patience)
        let other = try PiecewiseWriter(path: path, hold: hold, gap: 0.001)
        do {
            try await other.untilHolding()
        } catch {
            other.stop()
            throw error
        }
        return Beside(folder: folder, database: database, other: other)
    }

    static let now = Instant.at("2026-11-21T12:00:00Z")

    @Test("writes beside a writer whose 150 ms transactions follow each other 1 ms apart get in, rather than timing out")
    func writesGetInBetweenPieces() async throws {
        let beside = try await Self.besideAWriter(patience: 4, hold: 0.150)
        defer { beside.other.stop() }
        // With SQLite's busy timeout (tries ever further apart, then every 100 ms) a try lands in
        // a 1 ms gap about once in 150: one such write in four seconds succeeds about one time
        // in four, five in a row about one time in a thousand. Each starts while the writer
        // holds the lock (not while it waits for it after the last write, which leaves a gap).
        for index in 1...5 {
            try await beside.other.untilHolding()
            _ = try beside.database.createTag(name: "beside \(index)", colorHex: nil, emoji: nil, now: Self.now)
        }
        #expect(try beside.database.tagSummaries().count == 5)
    }

    @Test("with no time to wait, a write beside a held lock fails as locked without waiting, and nothing is written")
    func noPatienceFailsAtOnce() async throws {
        // One transaction of a minute (ended by stop()): had the write waited, it would have
        // got in at the next gap.
        let beside = try await Self.besideAWriter(patience: 0, hold: 60)
        defer { beside.other.stop() }
        let error = #expect(throws: (any Error).self) {
            _ = try beside.database.createTag(name: "refused", colorHex: nil, emoji: nil, now: Self.now)
        }
        #expect("\(error.map { String(describing: $0) } ?? "")".contains("locked"), "\(String(describing: error))")
        #expect(try beside.database.tagSummaries().isEmpty)
    }
}
