import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Saving plans in the store: plan.due through the outbox")
struct SavingPlanStoreTests {
    /// (due, data) of every plan.due in the outbox, oldest first.
    func planDueEvents(_ database: AppDatabase) throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT data FROM notify_events WHERE event = 'plan.due' ORDER BY seq")
        }
    }

    func statuses(_ database: AppDatabase) throws -> [String: Int] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT status, COUNT(*) FROM saving_plan_occurrences GROUP BY status")
                .map { ($0[0] as String, $0[1] as Int) })
        }
    }

    @Test("plan.due once per due date, written with its occurrence; after downtime only for dates whose 7 days are not over")
    func planDue() throws {
        let database = try AppDatabase.inMemory()
        try database.setNotifyTargets(["phone": [.planDue]])
        let setup = Instant.at("2026-10-30T10:00:00Z")
        _ = try database.createManualAsset(name: "Cash", currency: .eur, now: setup)
        _ = try database.createGoal(name: "Trip", currency: .eur, target: 100_000, deadline: nil, now: setup)
        _ = try database.createSavingPlan(SavingPlanRequest(name: "Coffee", goal: "Trip", asset: "Cash", amount: "2.50", every: "day",
                                                            start: "2026-11-01"), now: setup)
        #expect(try database.catchUpSavingPlans(now: setup).entries.isEmpty, "nothing due before the start")

        let first = try database.catchUpSavingPlans(now: .at("2026-11-03T12:00:00Z"))
        #expect(first.entries.map(\.due.description) == ["2026-11-01", "2026-11-02", "2026-11-03"])
        #expect(first.entries.allSatisfy { $0.status == .pending && $0.notified })
        #expect(try planDueEvents(database) == ["01", "02", "03"].map {
            #"{"plan":"Coffee","goal":"Trip","asset":"Cash","amount":250,"currency":"EUR","due":"2026-11-\#($0)"}"#
        })
        // Again at the same instant, or later that day: nothing new.
        #expect(try database.catchUpSavingPlans(now: .at("2026-11-03T12:00:00Z")).entries.isEmpty)
        #expect(try database.catchUpSavingPlans(now: .at("2026-11-03T23:59:59.999Z")).entries.isEmpty)
        #expect(try planDueEvents(database).count == 3)

        // Down until Nov 20: dates 11-04 through 11-20 are opened; only those from 11-14 on are
        // still within their 7 days (11-13's ended at 11-20 00:00) and get plan.due. Every date
        // up to 11-13 has passed its window without a deposit: missed.
        let after = try database.catchUpSavingPlans(now: .at("2026-11-20T00:00:00Z"))
        let opened = after.entries.filter { $0.status == .pending }
        #expect(opened.count == 17)
        #expect(opened.filter(\.notified).map(\.due.description) == (14...20).map { "2026-11-\($0)" })
        #expect(try planDueEvents(database).count == 3 + 7)
        #expect(try statuses(database) == ["missed": 13, "pending": 7])
        let notified = try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM saving_plan_occurrences WHERE notified = 1")
        }
        #expect(notified == 10)
    }

    @Test("a deposit recorded by tx add fulfils a reminder on a manual asset; an automatic plan's own deposit never does")
    func manualDeposits() throws {
        let database = try AppDatabase.inMemory()
        let setup = Instant.at("2026-11-01T00:00:00Z")
        _ = try database.createManualAsset(name: "Cash", currency: .eur, now: setup)
        _ = try database.createGoal(name: "Trip", currency: .eur, target: 100_000, deadline: nil, now: setup)
        _ = try database.createSavingPlan(SavingPlanRequest(name: "Auto", goal: "Trip", asset: "Cash", amount: "50", every: "week",
                                                            start: "2026-11-02", method: "automatic"), now: setup)
        _ = try database.createSavingPlan(SavingPlanRequest(name: "Remind", goal: "Trip", asset: "Cash", amount: "20", every: "week",
                                                            start: "2026-11-02"), now: setup)
        // Without a subscribed target, nothing goes to the outbox and the occurrence says so.
        let due = try database.catchUpSavingPlans(now: .at("2026-11-02T08:00:00Z"))
        #expect(due.entries.map { "\($0.plan) \($0.status.rawValue) \($0.notified)" } == ["Auto recorded false", "Remind pending false"])
        #expect(try planDueEvents(database).isEmpty)
        // The automatic plan's 50 EUR is in the Remind window but is not Remind's deposit.
        #expect(try database.catchUpSavingPlans(now: .at("2026-11-09T00:00:00Z")).entries
            .map { "\($0.plan) \($0.due) \($0.status.rawValue)" } == ["Auto 2026-11-09 recorded", "Remind 2026-11-09 pending", "Remind 2026-11-02 missed"])
        let deposit = try database.addManualTransaction(assetName: "Cash", amount: "20", date: .at("2026-11-10T09:00:00Z"), note: nil,
                                                        now: .at("2026-11-10T10:00:00Z"))
        let decided = try database.catchUpSavingPlans(now: .at("2026-11-10T10:00:00Z"))
        #expect(decided.entries.map { "\($0.plan) \($0.due) \($0.status.rawValue) \($0.txids)" }
                == ["Remind 2026-11-09 fulfilled [\"\(deposit.transaction.txid)\"]"])
    }
}
