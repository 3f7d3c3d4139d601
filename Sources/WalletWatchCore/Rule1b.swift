/// Rule 1b (SPEC.md section 16): a confirmed deposit to an address reserved for a goal goes to
/// that goal, whatever else the wallet is allocated to: the destination says where it belongs.
///
/// A transaction may pay several reserved addresses; each goal's target rises by what its
/// address received, together at most by what the transaction added to the wallet (a transfer
/// from the wallet's own coins adds nothing, so it raises nothing). A reservation of a goal that
/// is no longer active does not apply: that part goes to unallocated.
public enum Rule1b {
    /// What a transaction paid to one reserved address, and whose it is.
    public struct Deposit: Hashable, Sendable {
        /// The goal the address is reserved for.
        public let goalID: Int64
        /// Whether that goal is still active.
        public let goalStatus: GoalStatus
        /// What the transaction paid to the address, in sats.
        public let amount: Int128

        /// A payment of `amount` to an address reserved for `goalID`.
        public init(goalID: Int64, goalStatus: GoalStatus, amount: Int128) {
            self.goalID = goalID
            self.goalStatus = goalStatus
            self.amount = amount
        }
    }

    /// A goal's new target.
    public struct Decision: Hashable, Sendable {
        /// The goal whose target rises.
        public let goalID: Int64
        /// Its target on the asset after the deposit.
        public let newTarget: Int128

        /// A goal's new target.
        public init(goalID: Int64, newTarget: Int128) {
            self.goalID = goalID
            self.newTarget = newTarget
        }
    }

    /// The new targets for one transaction that added `netAmount` to the wallet and paid
    /// `deposits` to reserved addresses, given the goals' current targets on the asset. Deposits
    /// are taken in order (the caller orders them by address) until the net amount is used up.
    public static func decide(deposits: [Deposit], netAmount: Int128, targets: [Int64: Int128]) -> [Decision] {
        var left = max(0, netAmount)
        var raised: [Int64: Int128] = [:]
        var order: [Int64] = []
        for deposit in deposits where deposit.goalStatus == .active && deposit.amount > 0 && left > 0 {
            let amount = min(deposit.amount, left)
            left -= amount
            if raised[deposit.goalID] == nil { order.append(deposit.goalID) }
            raised[deposit.goalID, default: 0] += amount
        }
        return order.map { Decision(goalID: $0, newTarget: (targets[$0] ?? 0) + raised[$0]!) }
    }
}
