import Testing
@testable import WalletWatchCore

@Suite("Funded amounts (SPEC.md section 10)")
struct FundingTests {
    @Test("a balance covering every target funds them whole")
    func covered() {
        #expect(Funding.funded(balance: 100_000_000, targets: [30_000_000, 30_000_000]) == [30_000_000, 30_000_000])
        #expect(Funding.funded(balance: 60, targets: [30, 30]) == [30, 30])
    }

    @Test("the seeds' over-allocated example: 1 BTC against 0.6 + 0.6 funds 0.5 each")
    func overAllocated() {
        #expect(Funding.funded(balance: 100_000_000, targets: [60_000_000, 60_000_000]) == [50_000_000, 50_000_000])
    }

    @Test("proportional shares sum to the balance exactly and never exceed a target")
    func proportionalInvariants() {
        var state: UInt128 = 7
        func next(_ bound: UInt128) -> Int128 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int128((state >> 33) % bound)
        }
        for _ in 0..<3000 {
            let targets = (0..<Int(1 + next(5))).map { _ in next(1_000_000) }
            let balance = next(2_000_000) - 100_000
            let funded = Funding.funded(balance: balance, targets: targets)
            let total = targets.reduce(0, +)
            #expect(funded.count == targets.count)
            for (share, target) in zip(funded, targets) {
                #expect(share >= 0 && share <= target)
            }
            if balance <= 0 {
                #expect(funded.allSatisfy { $0 == 0 })
            } else if balance < total {
                #expect(funded.reduce(0, +) == balance)
            } else {
                #expect(funded == targets)
            }
        }
    }

    @Test("a non-positive balance funds nothing")
    func empty() {
        #expect(Funding.funded(balance: 0, targets: [10, 20]) == [0, 0])
        #expect(Funding.funded(balance: -5, targets: [10]) == [0])
        #expect(Funding.funded(balance: 10, targets: []) == [])
    }

    @Test("summary: allocated, spent, unallocated, shortfall and percentages")
    func summary() {
        let summary = AllocationSummary(balance: 1000, targets: [
            .init(goalID: 1, goalStatus: .active, amount: 400),
            .init(goalID: 2, goalStatus: .finished, amount: 300),
            .init(goalID: 3, goalStatus: .cancelled, amount: 999),
        ])
        #expect(summary.allocated == 400)
        #expect(summary.spent == 300)
        #expect(summary.unallocated == 300)
        #expect(summary.shortfall == 0)
        #expect(summary.funded == [1: 400, 2: 300])
        #expect(summary.percentHundredths(of: 400) == 4000)
        let over = AllocationSummary(balance: 800, targets: [.init(goalID: 1, goalStatus: .active, amount: 600), .init(goalID: 2, goalStatus: .active, amount: 600)])
        #expect(over.shortfall == 400)
        #expect(over.unallocated == 0)
        #expect(over.funded == [1: 400, 2: 400])
        #expect(AllocationSummary(balance: 0, targets: []).percentHundredths(of: 0) == nil)
    }
}
