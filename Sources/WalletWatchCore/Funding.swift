/// How much of each target an asset's balance actually funds (SPEC.md section 10):
/// funded(g) = t(g) when the balance covers every target; otherwise the balance shared in
/// proportion to the targets; nothing when the balance is not positive.
public enum Funding {
    /// The funded amount of each target, in the same order.
    ///
    /// Proportional shares are rounded by the largest-remainder method: each share is the exact
    /// quotient rounded down, and the minor units left over go to the largest remainders (ties:
    /// earlier targets first). So shares always sum to exactly the balance and none exceeds its
    /// target, which independent rounding of each share cannot promise.
    public static func funded(balance: Int128, targets: [Int128]) -> [Int128] {
        let total = targets.reduce(Int128(0), +)
        guard balance > 0, total > 0 else { return targets.map { _ in 0 } }
        guard balance < total else { return targets }
        var shares: [Int128] = []
        var remainders: [(index: Int, remainder: Int128)] = []
        for (index, target) in targets.enumerated() {
            // balance x target overflows 128 bits for large 18-decimal amounts (10^24 x 10^24):
            // the division goes through a 256-bit product. The share is below the balance.
            let (share, remainder) = Rounding.truncatingDivision(balance, times: target, over: total)!
            shares.append(share)
            remainders.append((index, remainder))
        }
        var leftover = balance - shares.reduce(0, +)
        for entry in remainders.sorted(by: { ($0.remainder, -$0.index) > ($1.remainder, -$1.index) }) where leftover > 0 {
            shares[entry.index] += 1
            leftover -= 1
        }
        return shares
    }
}

/// One asset's targets, as the views summarise them.
public struct AllocationSummary: Hashable, Sendable {
    /// One goal's target on the asset.
    public struct Target: Hashable, Sendable {
        public let goalID: Int64
        public let goalStatus: GoalStatus
        public let amount: Int128

        public init(goalID: Int64, goalStatus: GoalStatus, amount: Int128) {
            self.goalID = goalID
            self.goalStatus = goalStatus
            self.amount = amount
        }
    }

    /// The asset's counted balance.
    public let balance: Int128
    /// Sum of the targets of active goals.
    public let allocated: Int128
    /// Sum of the targets of finished goals: kept, but spent.
    public let spent: Int128
    /// Funded amount per goal id (active and finished goals share the balance).
    public let funded: [Int64: Int128]

    public init(balance: Int128, targets: [Target]) {
        self.balance = balance
        let counted = targets.filter { $0.goalStatus != .cancelled }.sorted { $0.goalID < $1.goalID }
        allocated = counted.filter { $0.goalStatus == .active }.reduce(0) { $0 + $1.amount }
        spent = counted.filter { $0.goalStatus == .finished }.reduce(0) { $0 + $1.amount }
        let shares = Funding.funded(balance: balance, targets: counted.map(\.amount))
        funded = Dictionary(uniqueKeysWithValues: zip(counted.map(\.goalID), shares))
    }

    /// Free for new allocations: the balance minus active and spent targets, never negative.
    public var unallocated: Int128 { max(0, balance - allocated - spent) }
    /// How much the targets exceed the balance ("underfunded by").
    public var shortfall: Int128 { max(0, allocated + spent - balance) }

    /// `amount` as a percentage of the balance in hundredths (4000 = 40.00%); nil for an empty asset.
    public func percentHundredths(of amount: Int128) -> Int64? {
        guard balance > 0 else { return nil }
        return Rounding.halfEven(amount, times: 10_000, over: balance).map { Int64(clamping: $0) } ?? Int64.max
    }
}
