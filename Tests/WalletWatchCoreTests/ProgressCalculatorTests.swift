import Foundation
import PropertyBased
import Testing
import TestSupport
@testable import WalletWatchCore

/// 1 BTC in sats.
private let btc: Int128 = 100_000_000

@Suite("The progress calculator (SPEC.md section 10)")
struct ProgressCalculatorTests {
    let start = Instant.at("2026-11-01T00:00:00Z")

    func asset(balance: Int128, movements: [(Int128, String)] = [], changes: [(Int64, Int128, String)] = [],
               baseline: [Int64: Int128], current: [Int64: Int128]? = nil) -> ProgressCalculator.AssetInput {
        ProgressCalculator.AssetInput(
            assetID: 1, currency: .btc, balanceNow: balance,
            movements: movements.map { .init(amount: $0.0, date: .at($0.1)) },
            changes: changes.map { .init(goalID: $0.0, amount: $0.1, timestamp: .at($0.2)) },
            baseline: baseline, currentTargets: current ?? baseline)
    }

    func totals(_ input: ProgressCalculator.AssetInput, _ goals: Set<Int64> = [1, 2]) -> [Int64: Int128] {
        ProgressCalculator.contributions(of: input, trackedGoals: goals).mapValues(\.total)
    }

    @Test("seeds' over-allocation: 1 BTC against 0.6 + 0.6, then a 0.2 deposit contributes 0.1 to each")
    func overAllocatedDeposit() {
        let input = asset(balance: 12 * btc / 10, movements: [(2 * btc / 10, "2026-11-10T00:00:00Z")],
                          baseline: [1: 6 * btc / 10, 2: 6 * btc / 10])
        let result = ProgressCalculator.contributions(of: input, trackedGoals: [1, 2])
        #expect(result[1]?.fundedAtStart == btc / 2)
        #expect(result[1]?.fundedAtEnd == 6 * btc / 10)
        #expect(result.mapValues(\.fromTransactions) == [1: btc / 10, 2: btc / 10])
        #expect(result.mapValues(\.fromReallocations) == [1: 0, 2: 0])
    }

    @Test("timestamp boundaries: a transaction at S counts, one 1 ms before does not; a history row at S is baseline")
    func boundaries() {
        // Dedicated to goal 1 throughout; its baseline is 0.5 with 0.5 in the wallet at S.
        let atStart = asset(balance: btc, movements: [(btc / 2, "2026-11-01T00:00:00Z")],
                            changes: [(1, btc, "2026-11-01T00:00:00.001Z")], baseline: [1: btc / 2])
        #expect(totals(atStart, [1]) == [1: btc / 2])
        // The deposit 1 ms before S is part of the balance at S: the target raise finds it there.
        let before = asset(balance: btc, changes: [(1, btc, "2026-11-01T00:00:00.001Z")], baseline: [1: btc / 2])
        #expect(totals(before, [1]) == [1: btc / 2], "a reallocation of money already there at S")
        let result = ProgressCalculator.contributions(of: before, trackedGoals: [1])
        #expect(result[1]?.fromReallocations == btc / 2 && result[1]?.fromTransactions == 0)
    }

    @Test("history reconstruction 0.5 -> 0.3 -> 0.6 walked in order: -0.2 then +0.3")
    func reconstruction() {
        let input = asset(balance: btc, changes: [(1, 3 * btc / 10, "2026-11-10T00:00:00Z"), (1, 6 * btc / 10, "2026-11-20T00:00:00Z")],
                          baseline: [1: btc / 2])
        #expect(totals(input, [1]) == [1: btc / 10])
        let midMonth = asset(balance: btc, changes: [(1, 3 * btc / 10, "2026-11-10T00:00:00Z")], baseline: [1: btc / 2])
        #expect(totals(midMonth, [1]) == [1: -2 * btc / 10], "queried between the two changes")
    }

    @Test("a reallocation moves value from one goal to another")
    func reallocation() {
        let input = asset(balance: btc, changes: [(1, 3 * btc / 10, "2026-11-05T00:00:00Z"), (2, 7 * btc / 10, "2026-11-05T00:00:00Z")],
                          baseline: [1: 6 * btc / 10, 2: 4 * btc / 10])
        #expect(totals(input) == [1: -3 * btc / 10, 2: 3 * btc / 10])
    }

    @Test("allocations before S are baseline; a dedicated asset with no history before S takes its current target")
    func baselines() {
        // Shared allocation made during the month: a contribution.
        let shared = asset(balance: btc, changes: [(1, btc / 2, "2026-11-05T00:00:00Z"), (2, btc / 2, "2026-11-05T00:00:00Z")], baseline: [:],
                           current: [1: btc / 2, 2: btc / 2])
        #expect(totals(shared) == [1: btc / 2, 2: btc / 2])
        // Dedicating an existing wallet during the month is not a contribution.
        let dedicated = asset(balance: btc, changes: [(1, btc, "2026-11-05T00:00:00Z")], baseline: [:], current: [1: btc])
        #expect(totals(dedicated, [1]) == [1: 0])
        // ... but its deposits after that are.
        let withDeposit = asset(balance: btc + 5000, movements: [(5000, "2026-11-06T00:00:00Z")],
                                changes: [(1, btc, "2026-11-05T00:00:00Z"), (1, btc + 5000, "2026-11-06T00:00:00Z")], baseline: [:],
                                current: [1: btc + 5000])
        #expect(totals(withDeposit, [1]) == [1: 5000])
    }

    @Test("at equal times the allocation change is walked first, so a Rule 1 deposit counts as a deposit")
    func allocationChangesFirst() {
        let input = asset(balance: 2 * btc, movements: [(btc, "2026-11-05T00:00:00Z")], changes: [(1, 2 * btc, "2026-11-05T00:00:00Z")],
                          baseline: [1: btc])
        let result = ProgressCalculator.contributions(of: input, trackedGoals: [1])
        #expect(result[1]?.fromTransactions == btc)
        #expect(result[1]?.fromReallocations == 0)
    }

    // Issue 12's two money cases, with SPEC.md's rules: a wallet dedicated to goal 1 holds 300 at
    // S (sats stand in for the USD of the issue: one rate, so the figures are the same).
    @Test("a deposit dated before S but recorded after it is baseline, whichever was recorded first")
    func backdatedDepositIsBaseline() {
        // Recorded in date order: the 500's Rule 1 row is dated before S, so the store reads it
        // into the history at S (baseline 800); the in-month 100 is the month's only deposit.
        let inOrder = asset(balance: 900, movements: [(100, "2026-11-10T00:00:00Z")],
                            changes: [(1, 900, "2026-11-10T00:00:00Z")], baseline: [1: 800])
        #expect(totals(inOrder, [1]) == [1: 100])
        // The 100 recorded first: the 500's Rule 1 row then had to follow the pair's latest row
        // (1 ms after it, past S). It still counts at the start.
        let late = ProgressCalculator.AssetInput(
            assetID: 1, currency: .btc, balanceNow: 900, movements: [.init(amount: 100, date: .at("2026-11-10T00:00:00Z"))],
            changes: [.init(goalID: 1, amount: 400, timestamp: .at("2026-11-10T00:00:00Z")),
                      .init(goalID: 1, amount: 900, timestamp: .at("2026-11-10T00:00:00.001Z"), countsAtStart: true)],
            baseline: [1: 300], currentTargets: [1: 900])
        let result = ProgressCalculator.contributions(of: late, trackedGoals: [1])
        #expect(result[1]?.total == 100)
        #expect(result[1]?.fundedAtStart == 800 && result[1]?.fundedAtEnd == 900)
        #expect(result[1]?.fromTransactions == 100 && result[1]?.fromReallocations == 0)
    }

    @Test("a deposit or withdrawal dated exactly S counts in the month, with its Rule 1 row walked at S")
    func transactionsAtStart() {
        // The store hands over the history before S (300) and the Rule 1 row at S, not counted
        // at the start because its transaction is the month's.
        let deposit = asset(balance: 800, movements: [(500, "2026-11-01T00:00:00Z")],
                            changes: [(1, 800, "2026-11-01T00:00:00Z")], baseline: [1: 300])
        #expect(totals(deposit, [1]) == [1: 500])
        // The same deposit 1 ms later: the same figure.
        let later = asset(balance: 800, movements: [(500, "2026-11-01T00:00:00.001Z")],
                          changes: [(1, 800, "2026-11-01T00:00:00.001Z")], baseline: [1: 300])
        #expect(totals(later, [1]) == [1: 500])
        // A withdrawal of 100 at S from 500: the goal's funded amount falls by 100.
        let withdrawal = asset(balance: 400, movements: [(-100, "2026-11-01T00:00:00Z")],
                               changes: [(1, 400, "2026-11-01T00:00:00Z")], baseline: [1: 500])
        #expect(totals(withdrawal, [1]) == [1: -100])
    }

    @Test("a plain allocate after a late baseline row moves only what the user changed")
    func allocateAfterLateRow() {
        // A dedicated wallet: 300 at S, a late Rule 1 row (+500, counting at the start), then
        // the user lowers goal 1's target by 100 with `allocate`.
        let input = ProgressCalculator.AssetInput(
            assetID: 1, currency: .btc, balanceNow: 800, movements: [],
            changes: [.init(goalID: 1, amount: 800, timestamp: .at("2026-11-02T00:00:00Z"), countsAtStart: true),
                      .init(goalID: 1, amount: 700, timestamp: .at("2026-11-05T00:00:00Z"))],
            baseline: [1: 300], currentTargets: [1: 700])
        let result = ProgressCalculator.contributions(of: input, trackedGoals: [1])
        #expect(result[1]?.fundedAtStart == 800)
        #expect(result[1]?.total == -100, "only the user's change of -100, not +400")
    }

    @Test("untracked goals still share the balance but get no contribution")
    func untracked() {
        let input = asset(balance: btc / 2, movements: [(-btc / 2, "2026-11-05T00:00:00Z")], baseline: [1: btc / 2, 2: btc / 2])
        #expect(totals(input, [1]) == [1: -btc / 4])
    }

    // MARK: - Properties

    /// A random asset history: a few goals, a baseline, changes and movements within the month.
    static let histories = Gen.int(in: 0...1_000_000).array(of: 40...40).map { numbers -> ProgressCalculator.AssetInput in
        var position = 0
        func next(_ bound: Int) -> Int {
            defer { position += 1 }
            return numbers[position % numbers.count] % bound
        }
        let goals: [Int64] = [1, 2, 3]
        var baseline: [Int64: Int128] = [:]
        for goal in goals where next(3) > 0 { baseline[goal] = Int128(next(500_000)) }
        let start = Instant.at("2026-11-01T00:00:00Z")
        let changes = (0..<next(4)).map { index in
            ProgressCalculator.TargetChange(goalID: goals[(index + next(3)) % 3], amount: Int128(next(600_000)),
                                            timestamp: start.adding(seconds: Int64(next(5) * 3600 + 1)))
        }
        var balanceAtStart = Int128(next(1_000_000))
        let movements = (0..<2).compactMap { index -> ProgressCalculator.Movement? in
            let amount = Int128(next(400_000)) - 150_000
            guard balanceAtStart + amount >= 0 else { return nil }
            balanceAtStart += amount
            return .init(amount: amount, date: start.adding(seconds: Int64(index * 7200 + next(3) * 3600)))
        }
        var current = baseline
        for change in changes { current[change.goalID] = change.amount }
        return .init(assetID: 1, currency: .btc, balanceNow: balanceAtStart, movements: movements, changes: changes,
                     baseline: baseline, currentTargets: current)
    }

    @Test("property: an asset's contributions sum to the change of its funded values")
    func contributionsTelescope() async {
        await propertyCheck(count: 400, input: Self.histories) { input in
            for (_, contribution) in ProgressCalculator.contributions(of: input, trackedGoals: [1, 2, 3]) {
                #expect(contribution.total == contribution.fundedAtEnd - contribution.fundedAtStart)
            }
        }
    }

    @Test("property: funded never exceeds the balance nor a target")
    func fundedBounds() async {
        await propertyCheck(count: 400, input: Gen.int(in: -1000...3_000_000), Gen.int(in: 0...2_000_000).array(of: 0...6)) { balance, targets in
            let funded = Funding.funded(balance: Int128(balance), targets: targets.map { Int128($0) })
            #expect(funded.reduce(0, +) <= max(0, Int128(balance)))
            for (share, target) in zip(funded, targets) { #expect(share >= 0 && share <= Int128(target)) }
        }
    }

    @Test("property: splitting one reallocation into two steps at the same total gives the same contributions")
    func splitReallocation() async {
        await propertyCheck(count: 400, input: Self.histories, Gen.int(in: 0...600_000)) { input, intermediate in
            guard let first = input.changes.first else { return }
            let step = ProgressCalculator.TargetChange(goalID: first.goalID, amount: Int128(intermediate), timestamp: first.timestamp)
            let split = ProgressCalculator.AssetInput(
                assetID: input.assetID, currency: input.currency, balanceNow: input.balanceNow, movements: input.movements,
                changes: [step] + input.changes, baseline: input.baseline, currentTargets: input.currentTargets)
            let whole = ProgressCalculator.contributions(of: input, trackedGoals: [1, 2, 3]).mapValues(\.total).filter { $0.value != 0 }
            let twoSteps = ProgressCalculator.contributions(of: split, trackedGoals: [1, 2, 3]).mapValues(\.total).filter { $0.value != 0 }
            #expect(whole == twoSteps)
        }
    }
}

@Suite("Exchange rates and conversion")
struct RateTableTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    func table(_ entries: [(String, String)], age: Int64 = 0) -> RateTable {
        RateTable(rates: entries.map { ExchangeRate(pair: CurrencyPair($0.0)!, rate: Decimal(string: $0.1)!, fetchedAt: now.adding(seconds: -age), provider: "static") },
                  now: now, maxAgeSeconds: 300)
    }

    @Test("same currency, stored pair, inverse and cross through BTC; rounding half to even once")
    func lookups() {
        let rates = table([("BTC/USD", "65000"), ("BTC/EUR", "60000")])
        #expect(rates.convert(Money(minorUnits: 1_500_000, currency: .btc), to: .usd)?.minorUnits == 97500)
        #expect(rates.convert(Money(minorUnits: 97500, currency: .usd), to: .btc)?.minorUnits == 1_500_000)
        #expect(rates.convert(Money(minorUnits: 10000, currency: .eur), to: .usd)?.minorUnits == 10833)
        #expect(rates.convert(Money(minorUnits: 123, currency: .usd), to: .usd)?.minorUnits == 123)
        #expect(rates.convert(Money(minorUnits: 1, currency: .jpy), to: .usd) == nil, "no rate is nil, never zero")
        // 0.5 cent exactly: half to even.
        let half = table([("BTC/USD", "50000")])
        #expect(half.convert(Money(minorUnits: 10, currency: .btc), to: .usd)?.minorUnits == 0)
        #expect(half.convert(Money(minorUnits: 30, currency: .btc), to: .usd)?.minorUnits == 2)
        #expect(half.convert(Money(minorUnits: 1000, currency: .btc), to: .jpy) == nil)
    }

    @Test("a cross rate is divided once, so an exact half stays a half: 861.54 EUR at 65000/60000 is 933.335 -> 933.34 USD")
    func exactCrossHalf() {
        let rates = table([("BTC/USD", "65000"), ("BTC/EUR", "60000")])
        #expect(rates.convert(Money(minorUnits: 86154, currency: .eur), to: .usd)?.minorUnits == 93334)
        #expect(rates.convert(Money(minorUnits: 93334, currency: .usd), to: .eur)?.minorUnits == 86154)
    }

    @Test("staleness follows max_age_seconds; a move above 1% invalidates")
    func staleness() {
        #expect(table([("BTC/USD", "65000")], age: 301).quote(from: .btc, to: .usd)?.stale == true)
        #expect(table([("BTC/USD", "65000")], age: 300).quote(from: .btc, to: .usd)?.stale == false)
        let before = table([("BTC/USD", "65000")])
        #expect(!table([("BTC/USD", "65600")]).movedMoreThan(0.01, since: before))
        #expect(table([("BTC/USD", "65700")]).movedMoreThan(0.01, since: before))
        #expect(table([("BTC/USD", "65000"), ("BTC/EUR", "1")]).movedMoreThan(0.01, since: before))
    }
}

@Suite("Monthly planning")
struct PlannerTests {
    @Test("months left count the current month through the deadline's month, at least 1")
    func monthsLeft() {
        let november = MonthLabel("2026-11")!
        #expect(Planner.monthsLeft(current: november, deadline: Day("2026-11-30")!) == 1)
        #expect(Planner.monthsLeft(current: november, deadline: Day("2027-06-01")!) == 8)
        #expect(Planner.monthsLeft(current: november, deadline: Day("2026-01-01")!) == 1)
    }

    @Test("required = what is missing / months left; nothing without a deadline or once funded")
    func required() {
        let november = MonthLabel("2026-11")!
        #expect(Planner.required(target: 1_000_000, funded: 200_000, deadline: Day("2027-06-30"), current: november) == 100_000)
        #expect(Planner.required(target: 100, funded: 0, deadline: Day("2027-02-28"), current: november) == 25)
        #expect(Planner.required(target: 10, funded: 0, deadline: Day("2027-02-28"), current: november) == 2, "2.5 rounds half to even")
        #expect(Planner.required(target: 100, funded: 150, deadline: Day("2027-02-28"), current: november) == 0)
        #expect(Planner.required(target: 100, funded: 0, deadline: nil, current: november) == 0)
        let plan = Planner.Plan(goalID: 1, required: 50, custom: 70, skipped: false)
        #expect(plan.planned == 70)
        #expect(Planner.Plan(goalID: 1, required: 50, custom: 70, skipped: true).planned == 0)
        #expect(GoalMonthFigures(planned: 100, contributed: 130).remaining == 0)
        #expect(GoalMonthFigures(planned: 100, contributed: 30).remaining == 70)
    }
}
