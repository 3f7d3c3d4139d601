import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Allocations and Rule 1")
struct AllocationTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    func makeDatabase(_ goals: [String] = ["House", "Trip"]) throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        _ = try database.createManualAsset(name: "Cash", currency: .usd, now: now)
        for goal in goals {
            _ = try database.createGoal(name: goal, currency: .usd, target: 1_000_000, deadline: nil, now: now)
        }
        return database
    }

    func history(_ database: AppDatabase, _ asset: String = "Cash") throws -> [Int128] {
        try database.allocationHistory(assetName: asset).map(\.amount)
    }

    func targets(_ database: AppDatabase, _ asset: String = "Cash") throws -> [String: Int128] {
        Dictionary(uniqueKeysWithValues: try database.assetOverview(named: asset).allocations.map { ($0.goal.name, $0.amount) })
    }

    @Test("close-goal's raise adds to the target as it is when written, so a change made after reading it is kept")
    func raiseTargetBy() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "1000", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "100")], now: now)
        let assetID = try database.asset(named: "Cash").id!
        let houseID = try database.goal(named: "House").id!
        // A suggestion read the target as 100; before it is applied, another command sets 200.
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "200")], now: now.adding(seconds: 1))
        #expect(try database.raiseTarget(assetID: assetID, goalID: houseID, by: 5_000, now: now.adding(seconds: 2)) == 25_000)
        #expect(try targets(database) == ["House": 25_000], "200 + 50, not the 100 + 50 the suggestion saw")
        #expect(try database.allocationHistory(assetName: "Cash").last?.reason == .closeGoal)
        // Beyond the balance: refused, nothing written.
        #expect(throws: Refusal.self) { try database.raiseTarget(assetID: assetID, goalID: houseID, by: 90_000, now: now.adding(seconds: 3)) }
        #expect(try targets(database) == ["House": 25_000])
    }

    @Test("allocate: amounts, percentages of the balance, GOAL=0 removes; history only for changes")
    func allocate() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "1000", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        var overview = try database.allocate(assetName: "Cash", assignments: [("House", "40%"), ("trip", "250.50")], now: now)
        #expect(overview.summary.allocated == 65_050)
        #expect(overview.summary.unallocated == 34_950)
        #expect(try history(database) == [40_000, 25_050])
        overview = try database.allocate(assetName: "Cash", assignments: [("House", "400")], now: now.adding(seconds: 1))
        #expect(try history(database).count == 2, "an unchanged target writes no history")
        overview = try database.allocate(assetName: "Cash", assignments: [("Trip", "0")], now: now.adding(seconds: 2))
        #expect(try targets(database) == ["House": 40_000])
        #expect(try history(database) == [40_000, 25_050, 0])
    }

    @Test("50% and 50% of an odd balance fit it: the percentages of one command are rounded together")
    func halves() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "10.03", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        let overview = try database.allocate(assetName: "Cash", assignments: [("House", "50%"), ("Trip", "50%")], now: now)
        #expect(try targets(database) == ["House": 502, "Trip": 501])
        #expect(overview.summary.unallocated == 0)
    }

    @Test("a set above the balance is refused naming total, balance and excess; nothing changes")
    func overBalance() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "60")], now: now)
        let counter = try database.changeCounter()
        #expect {
            try database.allocate(assetName: "Cash", assignments: [("Trip", "50")], now: now)
        } throws: { error in
            let message = (error as? Refusal)?.message ?? ""
            return message.contains("110.00 USD") && message.contains("100.00 USD") && message.contains("by 10.00 USD")
        }
        #expect(try targets(database) == ["House": 6000])
        #expect(try history(database) == [6000])
        #expect(try database.changeCounter() == counter)
    }

    @Test("validation: unknown or inactive goals, negative amounts, a goal twice, malformed amounts")
    func validation() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        #expect(throws: Refusal.self) { try database.allocate(assetName: "Cash", assignments: [("Boat", "1")], now: now) }
        #expect(throws: Refusal.self) { try database.allocate(assetName: "Nowhere", assignments: [("House", "1")], now: now) }
        #expect(throws: UsageError.self) { try database.allocate(assetName: "Cash", assignments: [("House", "-1")], now: now) }
        #expect(throws: UsageError.self) { try database.allocate(assetName: "Cash", assignments: [("House", "1"), ("house", "2")], now: now) }
        #expect(throws: UsageError.self) { try database.allocate(assetName: "Cash", assignments: [("House", "ten")], now: now) }
        _ = try database.finishGoal(named: "Trip", now: now)
        #expect(throws: Refusal.self) { try database.allocate(assetName: "Cash", assignments: [("Trip", "1")], now: now) }
        #expect(try history(database).isEmpty)
    }

    @Test("a dedicated asset: each confirmed deposit raises the goal's target, a withdrawal lowers it, never below 0")
    func dedicatedManualAsset() throws {
        let database = try makeDatabase()
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "100%")], now: .at("2026-11-01T00:00:00Z"))
        #expect(try targets(database) == ["House": 0], "100% of an empty asset keeps a 0 allocation")
        let deposit = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-02T10:00:00Z"), note: nil, now: now)
        #expect(deposit.transaction.rule1AppliedAt == now)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "-30", date: .at("2026-11-03T10:00:00Z"), note: nil, now: now)
        #expect(try targets(database) == ["House": 7000])
        let rows = try database.allocationHistory(assetName: "Cash")
        #expect(rows.map(\.amount) == [10_000, 7000])
        #expect(rows.map(\.timestamp) == [.at("2026-11-02T10:00:00Z"), .at("2026-11-03T10:00:00Z")], "dated at the transactions' dates")
        #expect(rows.allSatisfy { $0.reason == .rule1 && $0.txid != nil })
        #expect(try database.assetOverview(named: "Cash").summary.unallocated == 0)
    }

    @Test("shared and partly allocated assets are left alone; the amount shows as unallocated")
    func sharedAndPartial() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "40"), ("Trip", "60")], now: now)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "50", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        #expect(try targets(database) == ["House": 4000, "Trip": 6000])
        #expect(try database.assetOverview(named: "Cash").summary.unallocated == 5000)

        _ = try database.allocate(assetName: "Cash", assignments: [("Trip", "0")], now: now.adding(seconds: 1))
        _ = try database.addManualTransaction(assetName: "Cash", amount: "10", date: .at("2026-11-03T00:00:00Z"), note: nil, now: now)
        #expect(try targets(database) == ["House": 4000], "partly allocated: 40 of 150 does not cover the balance")
        #expect(try database.assetOverview(named: "Cash").summary.unallocated == 12_000)
    }

    @Test("a withdrawal on a shared asset leaves it over-allocated: a shortfall, funded shared proportionally")
    func shortfall() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "60"), ("Trip", "40")], now: now)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "-50", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        let overview = try database.assetOverview(named: "Cash")
        #expect(overview.summary.shortfall == 5000)
        #expect(overview.summary.unallocated == 0)
        let funded = Dictionary(uniqueKeysWithValues: overview.allocations.map { ($0.goal.name, overview.summary.funded[$0.goal.id!]!) })
        #expect(funded == ["House": 3000, "Trip": 2000])
        let house = try database.goalOverview(named: "House")
        #expect(house.shares.map(\.funded) == [3000])
    }

    @Test("ingest: pending changes nothing; confirmation raises the target once, however many passes follow")
    func exactlyOnceAcrossPasses() async throws {
        let database = try makeDatabase()
        let pending = ObservedTransaction(txid: "ark:ark:1", amount: 50_000, type: .ark, status: .pending, date: .at("2026-11-05T00:00:00Z"))
        let arkBalance: @Sendable (Int64) -> ArkBalance = { spendable in
            ArkBalance(spendable: spendable, pendingLightningSend: 0, claimableLightningReceive: 0, pendingInRound: 0, pendingExit: nil, pendingBoard: 0)
        }
        let pass: @Sendable (ObservedTransaction, Int64) async throws -> IngestCounts = { transaction, spendable in
            var ingest = try await database.beginPass(source: "ark", now: now)
            let asset = try await ingest.asset(.ark, named: "Ark wallet")
            try await ingest.record([transaction], in: asset)
            try await ingest.markVanished(in: asset)
            return try await ingest.publish(startedAt: now) { try $0.save(arkBalance(spendable)) }
        }
        _ = try await pass(pending, 0)
        _ = try database.allocate(assetName: "Ark wallet", assignments: [("House", "100%")], now: .at("2026-11-01T00:00:00Z"))
        var counts = try await pass(pending, 0)
        #expect(counts.autoAllocated == 0)
        #expect(try targets(database, "Ark wallet") == ["House": 0])
        var confirmed = pending
        confirmed.status = .confirmed
        counts = try await pass(confirmed, 50_000)
        #expect(counts.updated == 1 && counts.autoAllocated == 1)
        for _ in 0..<3 {
            counts = try await pass(confirmed, 50_000)
            #expect(counts == IngestCounts())
        }
        #expect(try targets(database, "Ark wallet") == ["House": 50_000])
        #expect(try history(database, "Ark wallet") == [50_000])
    }

    @Test("several confirmed in one pass: date order, each against the balance before it")
    func onePassInDateOrder() async throws {
        let database = try makeDatabase()
        var first = try await database.beginPass(source: "ark", now: now)
        _ = try await first.asset(.ark, named: "Ark wallet")
        _ = try await first.publish(startedAt: now) { _ in }
        _ = try database.allocate(assetName: "Ark wallet", assignments: [("House", "100%")], now: .at("2026-11-01T00:00:00Z"))
        var second = try await database.beginPass(source: "ark", now: now)
        let asset = try await second.asset(.ark, named: "Ark wallet")
        try await second.record([
            ObservedTransaction(txid: "c", amount: 500, type: .ark, status: .confirmed, date: .at("2026-11-04T00:00:00Z")),
            ObservedTransaction(txid: "a", amount: 1000, type: .ark, status: .confirmed, date: .at("2026-11-02T00:00:00Z")),
            ObservedTransaction(txid: "b", amount: 2000, type: .ark, status: .confirmed, date: .at("2026-11-03T00:00:00Z")),
        ], in: asset)
        let counts = try await second.publish(startedAt: now) { publication in
            try publication.save(ArkBalance(spendable: 3500, pendingLightningSend: 0, claimableLightningReceive: 0, pendingInRound: 0, pendingExit: nil, pendingBoard: 0))
        }
        #expect(counts.autoAllocated == 3)
        let rows = try database.allocationHistory(assetName: "Ark wallet")
        #expect(rows.map(\.amount) == [1000, 3000, 3500])
        #expect(rows.map(\.txid) == ["a", "b", "c"])
    }

    @Test("a Rule 1 row dated before the pair's latest row goes 1 ms after it: history never goes back in time")
    func monotonicRule1() throws {
        let database = try makeDatabase()
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "100%")], now: .at("2026-11-10T00:00:00Z"))
        _ = try database.addManualTransaction(assetName: "Cash", amount: "10", date: .at("2026-11-12T00:00:00Z"), note: nil, now: now)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "5", date: .at("2026-11-11T00:00:00Z"), note: nil, now: now)
        let rows = try database.allocationHistory(assetName: "Cash")
        #expect(rows.map(\.timestamp) == [.at("2026-11-12T00:00:00Z"), .at("2026-11-12T00:00:00.001Z")])
        #expect(rows.last?.amount == 1500)
    }

    @Test("editing or deleting an auto-allocated manual entry carries the change to its goal")
    func manualAdjustments() throws {
        let database = try makeDatabase()
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "100%")], now: .at("2026-11-01T00:00:00Z"))
        let deposit = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        _ = try database.editManualTransaction(txid: deposit.transaction.txid, edit: ManualTransactionEdit(amount: "80"), now: now)
        #expect(try targets(database) == ["House": 8000])
        _ = try database.deleteManualTransaction(txid: deposit.transaction.txid, now: now)
        #expect(try targets(database) == ["House": 0])
        #expect(try database.allocationHistory(assetName: "Cash").map(\.reason) == [.rule1, .rule1Adjust, .rule1Adjust])
    }

    @Test("the target at time T: latest row at or before T, ties by creation; 0 before the first")
    func targetAtTime() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "1", date: .at("2026-01-01T00:00:00Z"), note: nil, now: now)
        let jan1 = Instant.at("2026-01-01T00:00:00Z"), jan10 = Instant.at("2026-01-10T00:00:00Z"), jan20 = Instant.at("2026-01-20T00:00:00Z")
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "0.50")], now: jan1)
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "0.30")], now: jan10)
        _ = try database.allocate(assetName: "Cash", assignments: [("House", "0.60")], now: jan20)
        let ids = try database.read { db in (try Int64.fetchOne(db, sql: "SELECT id FROM assets")!, try Int64.fetchOne(db, sql: "SELECT id FROM goals WHERE name = 'House'")!) }
        let at = { (instant: Instant) in try database.target(assetID: ids.0, goalID: ids.1, at: instant) }
        #expect(try at(jan1.adding(milliseconds: -1)) == 0)
        #expect(try at(jan1) == 50)
        #expect(try at(.at("2026-01-05T00:00:00Z")) == 50)
        #expect(try at(jan10) == 30)
        #expect(try at(.at("2026-01-15T00:00:00Z")) == 30)
        #expect(try at(jan20) == 60)
        #expect(try at(now) == 60)
    }
}
