import Testing
import TestSupport
@testable import WalletWatchCore

@Suite("Rule 1 decisions")
struct Rule1Tests {
    let house = Rule1.Allocation(goalID: 1, goalStatus: .active, amount: 0)

    func confirmed(_ entries: [(String, Int128, String)]) -> [Rule1.Confirmed] {
        entries.map { Rule1.Confirmed(txid: $0.0, amount: $0.1, date: .at($0.2)) }
    }

    @Test("dedicated: exactly one allocation, to an active goal, covering the balance before")
    func dedication() {
        #expect(Rule1.dedicatedGoal(allocations: [house], balanceBefore: 0) == house)
        #expect(Rule1.dedicatedGoal(allocations: [.init(goalID: 1, goalStatus: .active, amount: 100)], balanceBefore: 100) != nil)
        #expect(Rule1.dedicatedGoal(allocations: [.init(goalID: 1, goalStatus: .active, amount: 99)], balanceBefore: 100) == nil, "partly allocated")
        #expect(Rule1.dedicatedGoal(allocations: [house, .init(goalID: 2, goalStatus: .active, amount: 0)], balanceBefore: 0) == nil, "shared")
        #expect(Rule1.dedicatedGoal(allocations: [.init(goalID: 1, goalStatus: .finished, amount: 5)], balanceBefore: 0) == nil, "finished goal")
        #expect(Rule1.dedicatedGoal(allocations: [], balanceBefore: 0) == nil, "not allocated")
    }

    @Test("equal dates share one balance-before; withdrawals lower the target, never below 0")
    func equalDatesAndWithdrawals() {
        let decisions = Rule1.decide(
            confirmed: confirmed([("a", 100, "2026-11-02T00:00:00Z"), ("b", 50, "2026-11-02T00:00:00Z"), ("c", -400, "2026-11-03T00:00:00Z")]),
            balanceAfterPass: -250, allocations: [house])
        #expect(decisions.map(\.txid) == ["a", "b", "c"])
        #expect(decisions.map(\.newTarget) == [100, 150, 0])
    }

    @Test("a whole history in one pass is decided in linear-ish time with the same answers")
    func manyInOnePass() {
        let count = 50_000
        let start = Instant.at("2026-01-01T00:00:00Z")
        let entries = (0..<count).map { index in
            Rule1.Confirmed(txid: "t\(index)", amount: index % 5 == 4 ? -300 : 500, date: start.adding(seconds: Int64(index)))
        }
        let total = entries.reduce(0) { $0 + $1.amount }
        let decisions = Rule1.decide(confirmed: entries.shuffled(), balanceAfterPass: total, allocations: [house])
        #expect(decisions.count == count)
        #expect(decisions.last?.newTarget == total)
    }
}
