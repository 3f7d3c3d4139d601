/// The one progress calculator (SPEC.md section 10): what each goal received from each asset
/// during a month's execution, from timestamps alone.
///
/// For an execution that started at S, observed at N:
/// 1. the asset's balance at S is its balance now minus its confirmed transactions dated in [S, N];
/// 2. its targets at S are the allocation history at S (allocations before S are the baseline,
///    never a contribution); an asset allocated to exactly one tracked goal with no history at or
///    before S takes that goal's current target as its baseline;
/// 3. the history rows dated in (S, N] and the transactions dated in [S, N] are walked in time
///    order (allocation changes first at equal times); after each step the funded amounts are
///    recomputed, and each change of a tracked goal's funded amount is a contribution;
/// 4. a goal's contribution from the asset is the sum of those changes, in the asset's currency
///    (converting and rounding happen once, later, on the sum).
public enum ProgressCalculator {
    /// A confirmed transaction dated in [S, N].
    public struct Movement: Hashable, Sendable {
        public let amount: Int64
        public let date: Instant
        public init(amount: Int64, date: Instant) {
            self.amount = amount
            self.date = date
        }
    }

    /// An allocation-history row dated in (S, N], in the order the rows were written.
    public struct TargetChange: Hashable, Sendable {
        public let goalID: Int64
        public let amount: Int64
        public let timestamp: Instant
        public init(goalID: Int64, amount: Int64, timestamp: Instant) {
            self.goalID = goalID
            self.amount = amount
            self.timestamp = timestamp
        }
    }

    /// Everything the calculator needs to know about one asset.
    public struct AssetInput: Hashable, Sendable {
        public let assetID: Int64
        public let currency: Currency
        /// The counted balance now (N).
        public let balanceNow: Int64
        /// Confirmed transactions dated in [S, N].
        public let movements: [Movement]
        /// History rows dated in (S, N], in the order they were written (ties by creation).
        public let changes: [TargetChange]
        /// Targets at S by goal, for pairs with history at or before S (the execution's snapshot).
        public let baseline: [Int64: Int64]
        /// Current targets by goal (for the dedicated-asset fallback).
        public let currentTargets: [Int64: Int64]

        public init(assetID: Int64, currency: Currency, balanceNow: Int64, movements: [Movement], changes: [TargetChange],
                    baseline: [Int64: Int64], currentTargets: [Int64: Int64]) {
            self.assetID = assetID
            self.currency = currency
            self.balanceNow = balanceNow
            self.movements = movements
            self.changes = changes
            self.baseline = baseline
            self.currentTargets = currentTargets
        }
    }

    /// One tracked goal's contribution from one asset, in the asset's currency.
    public struct Contribution: Hashable, Sendable {
        public var fundedAtStart: Int64 = 0
        public var fundedAtEnd: Int64 = 0
        /// Changes of funded caused by deposits and withdrawals.
        public var fromTransactions: Int64 = 0
        /// Changes of funded caused by allocation changes.
        public var fromReallocations: Int64 = 0
        /// The whole contribution (= fundedAtEnd - fundedAtStart).
        public var total: Int64 { fromTransactions + fromReallocations }

        public init(fundedAtStart: Int64 = 0, fundedAtEnd: Int64 = 0, fromTransactions: Int64 = 0, fromReallocations: Int64 = 0) {
            self.fundedAtStart = fundedAtStart
            self.fundedAtEnd = fundedAtEnd
            self.fromTransactions = fromTransactions
            self.fromReallocations = fromReallocations
        }
    }

    /// The contributions of one asset to the tracked goals, by goal id.
    public static func contributions(of asset: AssetInput, trackedGoals: Set<Int64>) -> [Int64: Contribution] {
        var balance = asset.balanceNow - asset.movements.reduce(0) { $0 + $1.amount }
        var targets = baselineTargets(of: asset, trackedGoals: trackedGoals)
        var funded = fundedByGoal(balance: balance, targets: targets)
        var result: [Int64: Contribution] = [:]
        for goal in trackedGoals where targets[goal] != nil || asset.changes.contains(where: { $0.goalID == goal }) {
            result[goal] = Contribution(fundedAtStart: funded[goal] ?? 0)
        }

        enum Step { case change(TargetChange), movement(Movement) }
        // Allocation changes first at equal times; each kind keeps its own order.
        let steps = (asset.changes.enumerated().map { (time: $1.timestamp, kind: 0, order: $0, step: Step.change($1)) }
            + asset.movements.enumerated().map { (time: $1.date, kind: 1, order: $0, step: Step.movement($1)) })
            .sorted { ($0.time, $0.kind, $0.order) < ($1.time, $1.kind, $1.order) }

        for entry in steps {
            let isReallocation: Bool
            switch entry.step {
            case .change(let change):
                targets[change.goalID] = change.amount
                isReallocation = true
            case .movement(let movement):
                balance += movement.amount
                isReallocation = false
            }
            let next = fundedByGoal(balance: balance, targets: targets)
            for goal in trackedGoals {
                let delta = (next[goal] ?? 0) - (funded[goal] ?? 0)
                guard delta != 0 else { continue }
                if isReallocation { result[goal, default: Contribution()].fromReallocations += delta }
                else { result[goal, default: Contribution()].fromTransactions += delta }
            }
            funded = next
        }
        for goal in result.keys { result[goal]!.fundedAtEnd = funded[goal] ?? 0 }
        return result
    }

    /// Targets at S: the snapshot, with the dedicated-asset fallback.
    static func baselineTargets(of asset: AssetInput, trackedGoals: Set<Int64>) -> [Int64: Int64] {
        var targets = asset.baseline
        let tracked = asset.currentTargets.keys.filter(trackedGoals.contains)
        if tracked.count == 1, let goal = tracked.first, asset.baseline[goal] == nil {
            targets[goal] = asset.currentTargets[goal]
        }
        return targets
    }

    /// funded(g) for every goal with a target, shared as ``Funding`` does (goals in id order).
    static func fundedByGoal(balance: Int64, targets: [Int64: Int64]) -> [Int64: Int64] {
        let goals = targets.keys.sorted()
        let shares = Funding.funded(balance: balance, targets: goals.map { targets[$0]! })
        return Dictionary(uniqueKeysWithValues: zip(goals, shares))
    }
}
