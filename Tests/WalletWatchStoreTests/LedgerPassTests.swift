import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

/// A pass written in many short transactions is seen whole or not at all (Schema.version4).
@Suite("Ingest passes: staged, then published at once")
struct LedgerPassTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    func movements(_ count: Int, status: TransactionStatus = .confirmed, from first: Int = 1) -> [ObservedTransaction] {
        (first..<(first + count)).map {
            ObservedTransaction(txid: "ark:ark:\($0)", amount: Int128(1_000 * $0), type: .ark, status: status,
                                date: now.adding(seconds: -Int64($0) * 60))
        }
    }

    /// What a reader sees: the source's assets, its transactions, and the change counter.
    func seen(_ database: AppDatabase) throws -> (assets: [String], transactions: Int, counter: Int64) {
        (try database.assets().map(\.name), try database.transactionCount(source: "ark"), try database.changeCounter())
    }

    /// Rows in the table behind the view, staged ones included.
    func ledgerRows(_ database: AppDatabase) throws -> Int { try rows(database, "ledger") }

    /// Rows of any table (a synchronous read: the tests around it are async).
    func rows(_ database: AppDatabase, _ table: String) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")! }
    }

    /// A process that does not exist: the owner of a pass whose process died.
    static let deadOwner = PassOwner(pid: Int32.max - 7, started: 12345)

    @Test("a first pass that stages in several writes shows nothing until it publishes, then everything at once")
    func invisibleUntilPublished() async throws {
        let database = try AppDatabase.inMemory()
        let before = try seen(database)
        var pass = try await database.beginPass(source: "ark", now: now)
        pass.stageThreshold = 3
        let asset = try await pass.asset(.ark, named: "Ark wallet")
        for first in stride(from: 1, to: 11, by: 2) { try await pass.record(movements(2, from: first), in: asset) }
        try await pass.finishStaging()
        #expect(try ledgerRows(database) == 8, "two writes of four rows each were staged; two rows wait for the publication")
        let during = try seen(database)
        #expect(during.assets.isEmpty && during.transactions == 0 && during.counter == before.counter)
        #expect(throws: Refusal.self) { try database.transactions(txid: "ark:ark:1") }
        let counts = try await pass.publish(startedAt: now) { _ in }
        #expect(counts.new == 10)
        let after = try seen(database)
        #expect(after.assets == ["Ark wallet"] && after.transactions == 10 && after.counter == before.counter + 1)
    }

    @Test("changes to existing rows are staged too: readers see the old rows until the pass publishes")
    func stagedUpdates() async throws {
        let database = try AppDatabase.inMemory()
        var first = try await database.beginPass(source: "ark", now: now)
        let asset = try await first.asset(.ark, named: "Ark wallet")
        try await first.record(movements(6, status: .pending), in: asset)
        _ = try await first.publish(startedAt: now) { _ in }

        var second = try await database.beginPass(source: "ark", now: now.adding(seconds: 60))
        second.stageThreshold = 2
        let again = try await second.asset(.ark, named: "Ark wallet")
        try await second.record(movements(5, status: .confirmed), in: again)
        try await second.markVanished(in: again)
        #expect(try database.transactions(TransactionFilter(status: .pending)).count == 6)
        let counts = try await second.publish(startedAt: now) { _ in }
        #expect(counts == IngestCounts(new: 0, updated: 5, dropped: 1))
        #expect(try database.transactions(TransactionFilter(status: .confirmed)).count == 5)
        #expect(try database.transactions(txid: "ark:ark:6").map(\.transaction.status) == [.failed])
        #expect(try rows(database, "staged_updates") == 0)
    }

    @Test("a pass whose process died stays invisible; the next pass takes its source over and removes what it staged")
    func deadPassTakenOver() async throws {
        let database = try AppDatabase.inMemory()
        guard case .claimed(var dead) = try await database.claimPass(source: "ark", now: now, owner: Self.deadOwner) else {
            Issue.record("a free source must be claimable")
            return
        }
        dead.stageThreshold = 4
        let asset = try await dead.asset(.ark, named: "Ark wallet")
        try await dead.record(movements(8), in: asset)
        try await dead.finishStaging()
        #expect(try ledgerRows(database) == 8)
        #expect(try seen(database).transactions == 0)

        var next = try await database.beginPass(source: "ark", now: now)
        #expect(try ledgerRows(database) == 0, "the dead pass's rows are removed before the next pass compares")
        #expect(try rows(database, "asset_rows") == 0,
                "and so is the asset it had created")
        let again = try await next.asset(.ark, named: "Ark wallet")
        try await next.record(movements(3), in: again)
        #expect(try await next.publish(startedAt: now) { _ in }.new == 3)
        #expect(try seen(database).transactions == 3)
        await #expect(throws: StoreError.self, "the dead pass's owner cannot publish over it") {
            _ = try await dead.publish(startedAt: now) { _ in }
        }
        #expect(try seen(database).transactions == 3)
    }

    @Test("while a live process holds a source, another pass of it waits; once it is done the source is free")
    func liveHolderKeepsOthersWaiting() async throws {
        let database = try AppDatabase.inMemory()
        var holder = try await database.beginPass(source: "ark", now: now)
        guard case .busy(let owner, let since) = try await database.claimPass(source: "ark", now: now) else {
            Issue.record("a source held by a live process must be busy")
            return
        }
        #expect(owner == PassOwner.current && since == now)
        await #expect(throws: StoreError.self) { _ = try await database.beginPass(source: "ark", now: now) }
        if case .busy = try await database.claimPass(source: "cold", now: now) { Issue.record("other sources stay free") }
        _ = try await holder.asset(.ark, named: "Ark wallet")
        _ = try await holder.publish(startedAt: now) { _ in }
        _ = try await database.beginPass(source: "ark", now: now)
    }

    @Test("a pass given up after a failure leaves nothing behind and frees its source")
    func abandoned() async throws {
        let database = try AppDatabase.inMemory()
        var pass = try await database.beginPass(source: "ark", now: now)
        pass.stageThreshold = 2
        let asset = try await pass.asset(.ark, named: "Ark wallet")
        try await pass.record(movements(5), in: asset)
        try await pass.abandon()
        #expect(try ledgerRows(database) == 0)
        #expect(try rows(database, "ingest_passes") == 0)
        #expect(try seen(database).assets.isEmpty)
        _ = try await database.beginPass(source: "ark", now: now)
    }

    /// The writer refuses every write (`PRAGMA query_only`), as a full disk refuses them: the
    /// pass cannot even be marked ownerless, so its claim still names this live process.
    @Test("a pass that could not be given up (every write refused) is taken over by the next pass of its source in the same process")
    func givenUpWithoutRoom() async throws {
        let database = try AppDatabase.inMemory()
        var pass = try await database.beginPass(source: "ark", now: now)
        pass.stageThreshold = 2
        let asset = try await pass.asset(.ark, named: "Ark wallet")
        try await pass.record(movements(5), in: asset)
        try await pass.finishStaging()
        let refuseWrites = { (refused: Bool) in
            try await database.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = \(refused ? 1 : 0)") }
        }
        try await refuseWrites(true)
        var refused = false
        do { try await pass.abandon() } catch { refused = true }
        try await refuseWrites(false)
        #expect(refused, "giving the pass up must fail while every write is refused")
        let staged = try ledgerRows(database)
        #expect(try rows(database, "ingest_passes") == 1 && staged > 0, "the pass and what it staged (\(staged) rows) are still there")

        // Not busy: this process is alive, but it gave that pass up.
        guard case .claimed(var next) = try await database.claimPass(source: "ark", now: now) else {
            Issue.record("the next pass of the source must take the given-up one over, not wait for it")
            return
        }
        #expect(try ledgerRows(database) == 0, "what the given-up pass staged is removed")
        let again = try await next.asset(.ark, named: "Ark wallet")
        try await next.record(movements(3), in: again)
        #expect(try await next.publish(startedAt: now) { _ in }.new == 3)
        #expect(try rows(database, "ingest_passes") == 0 && seen(database).transactions == 3)
    }

    @Test("a process's identity is its pid and the start time the kernel gives it")
    func ownerIdentity() {
        let me = PassOwner.current
        #expect(me.pid == getpid() && me.started > 0 && me.isAlive)
        #expect(!PassOwner(pid: me.pid, started: me.started + 1).isAlive, "a later process with a reused pid is someone else")
        #expect(!Self.deadOwner.isAlive && !PassOwner.nobody.isAlive)
    }
}
