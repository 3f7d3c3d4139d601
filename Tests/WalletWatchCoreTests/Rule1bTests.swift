import Testing
import WalletWatchCore

/// Rule 1b's decision (SPEC.md section 16): a deposit to a reserved address raises that goal's
/// target by what it received, at most by what the transaction added to the wallet.
@Suite struct Rule1bTests {
    @Test func aDepositRaisesItsGoalsTarget() {
        let decisions = Rule1b.decide(deposits: [.init(goalID: 7, goalStatus: .active, amount: 40_000)], netAmount: 40_000,
                                      targets: [7: 10_000, 8: 99])
        #expect(decisions == [.init(goalID: 7, newTarget: 50_000)])
    }

    @Test func aGoalWithoutAllocationStartsFromZero() {
        #expect(Rule1b.decide(deposits: [.init(goalID: 3, goalStatus: .active, amount: 5)], netAmount: 5, targets: [:])
                == [.init(goalID: 3, newTarget: 5)])
    }

    @Test func aCancelledOrFinishedGoalsReservationDoesNotApply() {
        for status in [GoalStatus.cancelled, .finished] {
            #expect(Rule1b.decide(deposits: [.init(goalID: 3, goalStatus: status, amount: 5)], netAmount: 5, targets: [3: 1]).isEmpty)
        }
    }

    @Test func theWalletsOwnCoinsRaiseNothing() {
        // A transfer from the wallet to a reserved address of its own adds nothing (net: the fee).
        #expect(Rule1b.decide(deposits: [.init(goalID: 3, goalStatus: .active, amount: 90_000)], netAmount: -210, targets: [:]).isEmpty)
        // Part own coins, part new money: only the new money counts.
        #expect(Rule1b.decide(deposits: [.init(goalID: 3, goalStatus: .active, amount: 90_000)], netAmount: 30_000, targets: [:])
                == [.init(goalID: 3, newTarget: 30_000)])
    }

    @Test func twoGoalsInOneTransactionShareTheNetAmountInOrder() {
        let deposits: [Rule1b.Deposit] = [.init(goalID: 1, goalStatus: .active, amount: 60), .init(goalID: 2, goalStatus: .active, amount: 50),
                                          .init(goalID: 1, goalStatus: .active, amount: 10)]
        #expect(Rule1b.decide(deposits: deposits, netAmount: 100, targets: [2: 7])
                == [.init(goalID: 1, newTarget: 60), .init(goalID: 2, newTarget: 47)])
        #expect(Rule1b.decide(deposits: deposits, netAmount: 200, targets: [:])
                == [.init(goalID: 1, newTarget: 70), .init(goalID: 2, newTarget: 50)])
    }
}
