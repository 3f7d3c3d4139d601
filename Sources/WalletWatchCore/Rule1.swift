/// Rule 1 (SPEC.md section 5): where a newly confirmed transaction's amount goes.
///
/// An asset allocated to exactly one active goal, with that allocation covering the asset's
/// whole balance before the transaction, is dedicated to the goal: the goal's target moves by
/// the amount (never below zero). Shared, partly allocated and unallocated assets are left to
/// the user: the amount simply shows up as unallocated.
public enum Rule1 {
    /// One goal's current target on the asset.
    public struct Allocation: Hashable, Sendable {
        public let goalID: Int64
        public let goalStatus: GoalStatus
        public let amount: Int128

        public init(goalID: Int64, goalStatus: GoalStatus, amount: Int128) {
            self.goalID = goalID
            self.goalStatus = goalStatus
            self.amount = amount
        }
    }

    /// A transaction that became confirmed, as Rule 1 sees it.
    public struct Confirmed: Hashable, Sendable {
        public let txid: String
        public let amount: Int128
        public let date: Instant

        public init(txid: String, amount: Int128, date: Instant) {
            self.txid = txid
            self.amount = amount
            self.date = date
        }
    }

    /// A target change Rule 1 decided.
    public struct Decision: Hashable, Sendable {
        public let txid: String
        public let goalID: Int64
        public let newTarget: Int128
        public let date: Instant
    }

    /// The goal the asset is dedicated to, given its allocations and its balance before the
    /// transaction; nil when it is shared, partly allocated or not allocated.
    public static func dedicatedGoal(allocations: [Allocation], balanceBefore: Int128) -> Allocation? {
        guard allocations.count == 1, let only = allocations.first, only.goalStatus == .active,
              only.amount >= balanceBefore
        else { return nil }
        return only
    }

    /// Decides, for one asset, the transactions confirmed in one pass: taken in date order,
    /// each against the balance before it, which is the balance after the pass minus the
    /// amounts of this pass's confirmed transactions dated at or after it. Transactions in
    /// `excluded` (Rule 1b's deposits to reserved addresses) count in those balances but are
    /// never allocated.
    public static func decide(
        confirmed: [Confirmed], balanceAfterPass: Int128, allocations: [Allocation], excluding excluded: Set<String> = []
    ) -> [Decision] {
        let ordered = confirmed.sorted { ($0.date, $0.txid) < ($1.date, $1.txid) }
        // atOrAfter[i]: the amounts dated at or after ordered[i] (equal dates all count),
        // built from the end so that many transactions in one pass cost O(n log n).
        var atOrAfter = [Int128](repeating: 0, count: ordered.count)
        var index = ordered.count - 1
        var running: Int128 = 0
        while index >= 0 {
            var start = index
            while start > 0, ordered[start - 1].date == ordered[index].date { start -= 1 }
            running += ordered[start...index].reduce(0) { $0 + $1.amount }
            for position in start...index { atOrAfter[position] = running }
            index = start - 1
        }
        var allocations = allocations
        var decisions: [Decision] = []
        for (position, transaction) in ordered.enumerated() where !excluded.contains(transaction.txid) {
            let balanceBefore = balanceAfterPass - atOrAfter[position]
            guard let goal = dedicatedGoal(allocations: allocations, balanceBefore: balanceBefore) else { continue }
            let newTarget = max(0, goal.amount + transaction.amount)
            guard newTarget != goal.amount else { continue }
            decisions.append(Decision(txid: transaction.txid, goalID: goal.goalID, newTarget: newTarget, date: transaction.date))
            allocations = [Allocation(goalID: goal.goalID, goalStatus: goal.goalStatus, amount: newTarget)]
        }
        return decisions
    }
}
