/// The Ark balance a wallet's movements add up to, kept as an unclamped sum so that a movement
/// can be added or replaced in O(1): the balance after one more movement is the old sum plus
/// that movement's contribution, even for a generated history of a million.
struct BalanceSum: Sendable, Hashable {
    var spendable: Int64 = 0
    var pendingLightningSend: Int64 = 0
    var claimableLightningReceive: Int64 = 0
    var pendingBoard: Int64 = 0
    var pendingExit: Int64 = 0

    static let zero = BalanceSum()

    /// What one movement does to barkd's balance: successful ones moved the spendable funds;
    /// pending ones hold theirs in the matching pending figure; failed and canceled ones, none.
    static func contribution(of movement: BarkdMovement) -> BalanceSum {
        var sum = BalanceSum()
        let amount = movement.effectiveBalanceSat
        switch (movement.status, movement.subsystem.name) {
        case (.successful, _):
            sum.spendable = amount
        case (.pending, "bark.lightning_send"):
            sum.spendable = amount
            sum.pendingLightningSend = -amount
        case (.pending, "bark.lightning_receive"):
            sum.claimableLightningReceive = max(0, amount)
        case (.pending, "bark.board"):
            sum.pendingBoard = max(0, amount)
        case (.pending, "bark.exit"):
            sum.spendable = amount
            sum.pendingExit = max(0, -amount)
        case (.pending, _):
            // Outgoing funds are locked at once; incoming ones count when they complete.
            sum.spendable = min(0, amount)
        case (.failed, _), (.canceled, _):
            break
        }
        return sum
    }

    /// The sum over a whole history.
    static func total(of movements: some Sequence<BarkdMovement>) -> BalanceSum {
        movements.reduce(into: BalanceSum()) { $0 = $0 + contribution(of: $1) }
    }

    /// The balance barkd would report (spendable never below zero).
    var balance: BarkdBalance {
        BarkdBalance(
            spendableSat: max(0, spendable), pendingLightningSendSat: max(0, pendingLightningSend),
            claimableLightningReceiveSat: claimableLightningReceive, pendingInRoundSat: 0, pendingBoardSat: pendingBoard,
            pendingExitSat: pendingExit)
    }

    static func + (lhs: BalanceSum, rhs: BalanceSum) -> BalanceSum {
        BalanceSum(
            spendable: lhs.spendable + rhs.spendable, pendingLightningSend: lhs.pendingLightningSend + rhs.pendingLightningSend,
            claimableLightningReceive: lhs.claimableLightningReceive + rhs.claimableLightningReceive,
            pendingBoard: lhs.pendingBoard + rhs.pendingBoard, pendingExit: lhs.pendingExit + rhs.pendingExit)
    }

    static func - (lhs: BalanceSum, rhs: BalanceSum) -> BalanceSum {
        BalanceSum(
            spendable: lhs.spendable - rhs.spendable, pendingLightningSend: lhs.pendingLightningSend - rhs.pendingLightningSend,
            claimableLightningReceive: lhs.claimableLightningReceive - rhs.claimableLightningReceive,
            pendingBoard: lhs.pendingBoard - rhs.pendingBoard, pendingExit: lhs.pendingExit - rhs.pendingExit)
    }
}
