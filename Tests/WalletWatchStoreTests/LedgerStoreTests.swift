import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Manual ledger in the store")
struct LedgerStoreTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    func makeDatabase() throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        _ = try database.createManualAsset(name: "Cash", currency: .usd, now: now)
        return database
    }

    @Test("names are unique case-insensitively, in every script")
    func uniqueNames() throws {
        let database = try makeDatabase()
        #expect(throws: Refusal.self) { try database.createManualAsset(name: "cash", currency: .eur, now: now) }
        _ = try database.createManualAsset(name: "Café", currency: .eur, now: now)
        #expect(throws: Refusal.self) { try database.createManualAsset(name: "CAFÉ", currency: .eur, now: now) }
        #expect(throws: UsageError.self) { try database.createManualAsset(name: "   ", currency: .eur, now: now) }
        #expect(throws: UsageError.self) { try database.createManualAsset(name: String(repeating: "x", count: 65), currency: .eur, now: now) }
        #expect(try database.asset(named: " CASH ").name == "Cash")
    }

    @Test("a transaction stores exact minor units and the balance follows")
    func addAndBalance() throws {
        let database = try makeDatabase()
        let listing = try database.addManualTransaction(assetName: "Cash", amount: "250.50", date: .at("2026-11-02T10:00:00Z"), note: "salary", now: now)
        #expect(listing.transaction.amount == 25050)
        #expect(listing.transaction.txid.hasPrefix("manual:"))
        #expect(listing.transaction.status == .confirmed)
        #expect(listing.transaction.direction == .incoming)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "-20", date: nil, note: nil, now: now)
        #expect(try database.balances()[1]?.counted == 23050)
        #expect(try database.transactions().map(\.transaction.amount) == [-2000, 25050])
    }

    @Test("a refused transaction writes nothing")
    func refusedWritesNothing() throws {
        let database = try makeDatabase()
        _ = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-02T10:00:00Z"), note: nil, now: now)
        let counter = try database.changeCounter()
        #expect(throws: Refusal.self) {
            try database.addManualTransaction(assetName: "Cash", amount: "-100.01", date: .at("2026-11-03T10:00:00Z"), note: nil, now: now)
        }
        #expect(throws: UsageError.self) {
            try database.addManualTransaction(assetName: "Cash", amount: "1.001", date: nil, note: nil, now: now)
        }
        #expect(try database.transactions().count == 1)
        #expect(try database.changeCounter() == counter)
    }

    @Test("edit and delete keep the ledger valid and name what to do")
    func editAndDelete() throws {
        let database = try makeDatabase()
        let deposit = try database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-01T10:00:00Z"), note: nil, now: now)
        let withdrawal = try database.addManualTransaction(assetName: "Cash", amount: "-80", date: .at("2026-11-05T10:00:00Z"), note: nil, now: now)
        let depositID = deposit.transaction.txid
        let withdrawalID = withdrawal.transaction.txid
        #expect {
            try database.editManualTransaction(txid: depositID, edit: ManualTransactionEdit(amount: "50"), now: now)
        } throws: { error in
            (error as? Refusal)?.message.contains(withdrawalID) == true
        }
        #expect {
            try database.deleteManualTransaction(txid: depositID, now: now)
        } throws: { error in
            (error as? Refusal)?.message.contains("delete or edit \(withdrawalID) first") == true
        }
        let edited = try database.editManualTransaction(txid: depositID, edit: ManualTransactionEdit(amount: "90", note: .some("fixed")), now: now)
        #expect(edited.transaction.amount == 9000)
        #expect(edited.transaction.note == "fixed")
        _ = try database.deleteManualTransaction(txid: withdrawalID, now: now)
        _ = try database.deleteManualTransaction(txid: depositID, now: now)
        #expect(try database.transactions().isEmpty)
        #expect(throws: Refusal.self) { try database.deleteManualTransaction(txid: "manual:nope", now: now) }
    }

    @Test("only manual assets take manual transactions; source rows cannot be edited")
    func sourceAssetsAreReadOnly() throws {
        let database = try makeDatabase()
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO asset_rows (name, currency, kind, source, created_at) VALUES ('Ark wallet', 'BTC', 'ark', 'ark', '2026-11-01T00:00:00.000Z')")
            try db.execute(sql: """
                INSERT INTO ledger (asset_id, txid, amount, type, status, direction, date, first_seen_at, last_updated)
                VALUES (2, 'ark:ark:1', 1000, 'ark', 'confirmed', 'incoming', '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z')
                """)
        }
        #expect(throws: Refusal.self) { try database.addManualTransaction(assetName: "Ark wallet", amount: "1", date: nil, note: nil, now: now) }
        #expect(throws: Refusal.self) { try database.deleteManualTransaction(txid: "ark:ark:1", now: now) }
        #expect(throws: Refusal.self) { try database.editManualTransaction(txid: "ark:ark:1", edit: ManualTransactionEdit(amount: "2"), now: now) }
    }

    @Test("currency is locked once the asset has a transaction")
    func currencyLock() throws {
        let database = try makeDatabase()
        _ = try database.editAsset(named: "Cash", newName: nil, newCurrency: .eur)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "1", date: nil, note: nil, now: now)
        #expect {
            try database.editAsset(named: "Cash", newName: nil, newCurrency: .usd)
        } throws: { error in
            (error as? Refusal)?.message.contains("locked") == true
        }
        #expect(try database.editAsset(named: "Cash", newName: "Wallet", newCurrency: nil).name == "Wallet")
    }

    @Test("goal lifecycle: cancel frees allocations with history rows, finish keeps them, delete removes them")
    func goalLifecycle() throws {
        let database = try makeDatabase()
        let house = try database.createGoal(name: "House", currency: .usd, target: 1_000_000, deadline: Day("2027-06-30"), now: now)
        let trip = try database.createGoal(name: "Trip", currency: .usd, target: 50_000, deadline: nil, now: now)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "1000", date: .at("2026-11-01T00:00:00Z"), note: nil, now: now)
        try database.writer.write { db in
            try AppDatabase.writeTarget(db, assetID: 1, goalID: house.id!, amount: 40_000, at: now, now: now, reason: .allocate)
            try AppDatabase.writeTarget(db, assetID: 1, goalID: trip.id!, amount: 30_000, at: now, now: now, reason: .allocate)
        }
        let later = now.adding(seconds: 60)
        let cancelled = try database.cancelGoal(named: "trip", now: later)
        #expect(cancelled.status == .cancelled)
        let history = try database.read { db in try AllocationHistoryRow.order(Column("id")).fetchAll(db) }
        #expect(history.map(\.amount) == [40_000, 30_000, 0])
        #expect(history.last?.reason == .cancel)
        #expect(try database.assetOverview(named: "Cash").summary.unallocated == 60_000)
        #expect(throws: Refusal.self) { try database.cancelGoal(named: "Trip", now: later) }

        _ = try database.finishGoal(named: "House", now: later)
        let overview = try database.assetOverview(named: "Cash")
        #expect(overview.summary.allocated == 0)
        #expect(overview.summary.spent == 40_000)
        #expect(overview.summary.unallocated == 60_000)

        _ = try database.deleteGoal(named: "House")
        #expect(try database.assetOverview(named: "Cash").allocations.isEmpty)
        // House's history went with it; Trip's two rows (30000, then 0 on cancel) stay.
        #expect(try database.read { db in try AllocationHistoryRow.fetchCount(db) } == 2)
        #expect(try database.goals().map(\.name) == ["Trip"])
    }

    @Test("a pair's history never goes back in time")
    func historyIsMonotonic() throws {
        let database = try makeDatabase()
        let goal = try database.createGoal(name: "House", currency: .usd, target: 1, deadline: nil, now: now)
        try database.writer.write { db in
            try AppDatabase.writeTarget(db, assetID: 1, goalID: goal.id!, amount: 10, at: now, now: now, reason: .allocate)
            try AppDatabase.writeTarget(db, assetID: 1, goalID: goal.id!, amount: 20, at: now.adding(seconds: -3600), now: now, reason: .rule1, txid: "x")
            // Unchanged targets write nothing.
            #expect(try !AppDatabase.writeTarget(db, assetID: 1, goalID: goal.id!, amount: 20, at: now, now: now, reason: .allocate))
        }
        let rows = try database.read { db in try AllocationHistoryRow.order(Column("id")).fetchAll(db) }
        #expect(rows.map(\.timestamp) == [now, now.adding(milliseconds: 1)])
    }
}
