/// The one progress calculator (SPEC.md section 10): what each goal received from each asset
/// during a month's execution, from timestamps alone.
///
/// For an execution that started at S, observed at N:
/// 1. the asset's balance at S is its balance now minus its confirmed transactions dated in [S, N];
/// 2. its targets at S are the allocation history at S (allocations before S are the baseline,
///    never a contribution); an asset allocated to exactly one tracked goal with no history at or
///    before S takes that goal's current target as its baseline;
/// 3. the month's history rows (dated after S; see below for S itself) and the transactions dated
///    in [S, N] are walked in time
///    order (allocation changes first at equal times); after each step the funded amounts are
///    recomputed, and each change of a tracked goal's funded amount is a contribution.
///
/// What is dated before S belongs to the baseline however late it was recorded: a transaction
/// dated before S that arrives after the start (a backdated `tx add`, a source that was offline)
/// is in the balance at S by step 1, and the Rule 1 row it causes is in the targets at S, even
/// when that row had to be timestamped after S because the pair's history never goes back in
/// time. A Rule 1 row goes with its transaction: one for a transaction dated in [S, N] is walked
/// with it (so a deposit dated exactly S counts like one a millisecond later). Rows that belong
/// to the baseline but are timestamped at or after S are marked ``TargetChange/countsAtStart``:
/// their change of target is added to the baseline instead of being walked. So the month's
/// figures depend on the dates of events only, never on the order they were recorded in.
public enum ProgressCalculator {
    /// A confirmed transaction dated in [S, N].
    public struct Movement: Hashable, Sendable {
        public let amount: Int128
        public let date: Instant
        public init(amount: Int128, date: Instant) {
            self.amount = amount
            self.date = date
        }
    }

    /// An allocation-history row dated in [S, N], in the order the rows were written.
    public struct TargetChange: Hashable, Sendable {
        public let goalID: Int64
        public let amount: Int128
        public let timestamp: Instant
        /// The row belongs to the targets at S, not to the month: a row dated exactly S that no
        /// transaction of the month caused, or a Rule 1 row (or its adjustment after an edit) of a
        /// transaction dated before S that was timestamped later because the pair already had
        /// later rows.
        public let countsAtStart: Bool
        public init(goalID: Int64, amount: Int128, timestamp: Instant, countsAtStart: Bool = false) {
            self.goalID = goalID
            self.amount = amount
            self.timestamp = timestamp
            self.countsAtStart = countsAtStart
        }
    }

    /// Everything the calculator needs to know about one asset.
    public struct AssetInput: Hashable, Sendable {
        public let assetID: Int64
        public let currency: Currency
        /// The counted balance now (N).
        public let balanceNow: Int128
        /// Confirmed transactions dated in [S, N].
        public let movements: [Movement]
        /// History rows dated in [S, N], in the order they were written (ties by creation).
        public let changes: [TargetChange]
        /// Targets just before S by goal, for pairs with history rows dated before S (read from
        /// the history as it is now, so that rows recorded after the start but dated before it count).
        public let baseline: [Int64: Int128]
        /// Current targets by goal (for the dedicated-asset fallback).
        public let currentTargets: [Int64: Int128]

        public init(assetID: Int64, currency: Currency, balanceNow: Int128, movements: [Movement], changes: [TargetChange],
                    baseline: [Int64: Int128], currentTargets: [Int64: Int128]) {
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
        public var fundedAtStart: Int128 = 0
        public var fundedAtEnd: Int128 = 0
        /// Changes of funded caused by deposits and withdrawals.
        public var fromTransactions: Int128 = 0
        /// Changes of funded caused by allocation changes.
        public var fromReallocations: Int128 = 0
        /// The whole contribution (= fundedAtEnd - fundedAtStart).
        public var total: Int128 { fromTransactions + fromReallocations }

        public init(fundedAtStart: Int128 = 0, fundedAtEnd: Int128 = 0, fromTransactions: Int128 = 0, fromReallocations: Int128 = 0) {
            self.fundedAtStart = fundedAtStart
            self.fundedAtEnd = fundedAtEnd
            self.fromTransactions = fromTransactions
            self.fromReallocations = fromReallocations
        }
    }

    /// The contributions of one asset to the tracked goals, by goal id.
    public static func contributions(of asset: AssetInput, trackedGoals: Set<Int64>) -> [Int64: Contribution] {
        var balance = asset.balanceNow - asset.movements.reduce(0) { $0 + $1.amount }
        let walk = targetWalk(of: asset, trackedGoals: trackedGoals)
        var targets = walk.baseline
        var funded = fundedByGoal(balance: balance, targets: targets)
        var result: [Int64: Contribution] = [:]
        for goal in trackedGoals where targets[goal] != nil || walk.changes.contains(where: { $0.goalID == goal }) {
            result[goal] = Contribution(fundedAtStart: funded[goal] ?? 0)
        }

        enum Step { case change(TargetChange), movement(Movement) }
        // Allocation changes first at equal times; each kind keeps its own order.
        let steps = (walk.changes.enumerated().map { (time: $1.timestamp, kind: 0, order: $0, step: Step.change($1)) }
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

    /// The targets at S and the history rows to walk, with the rows that count at the start
    /// folded into the baseline.
    ///
    /// History rows hold absolute targets, written in order. A row that counts at the start
    /// changed its pair's target by `amount - previous amount`; that change moves to the baseline,
    /// and every walked row written before it is raised by the same change, since in date order
    /// the change came first. (Without such rows this is the history as written.)
    static func targetWalk(of asset: AssetInput, trackedGoals: Set<Int64>) -> (baseline: [Int64: Int128], changes: [TargetChange]) {
        var previous = asset.baseline
        var lateChanges: [Int64: [Int128]] = [:]  // per goal, the change of each row that counts at the start, in order
        var lateBefore: [Int] = []  // per row, how many of its goal's late rows came before it
        for change in asset.changes {
            let delta = change.amount - (previous[change.goalID] ?? 0)
            previous[change.goalID] = change.amount
            lateBefore.append(lateChanges[change.goalID]?.count ?? 0)
            if change.countsAtStart { lateChanges[change.goalID, default: []].append(delta) }
        }
        var baseline = baselineTargets(of: asset, trackedGoals: trackedGoals, countedAtStart: Set(lateChanges.keys))
        for (goal, deltas) in lateChanges { baseline[goal] = max(0, (asset.baseline[goal] ?? 0) + deltas.reduce(0, +)) }
        var changes: [TargetChange] = []
        for (index, change) in asset.changes.enumerated() where !change.countsAtStart {
            let later = (lateChanges[change.goalID] ?? []).dropFirst(lateBefore[index]).reduce(0, +)
            changes.append(TargetChange(goalID: change.goalID, amount: max(0, change.amount + later), timestamp: change.timestamp))
        }
        return (baseline, changes)
    }

    /// Targets at S: the history at S, with the dedicated-asset fallback for a tracked goal that
    /// has no row at or before S (and none counted there).
    static func baselineTargets(of asset: AssetInput, trackedGoals: Set<Int64>, countedAtStart: Set<Int64> = []) -> [Int64: Int128] {
        var targets = asset.baseline
        let tracked = asset.currentTargets.keys.filter(trackedGoals.contains)
        if tracked.count == 1, let goal = tracked.first, asset.baseline[goal] == nil, !countedAtStart.contains(goal) {
            targets[goal] = asset.currentTargets[goal]
        }
        return targets
    }

    /// funded(g) for every goal with a target, shared as ``Funding`` does (goals in id order).
    static func fundedByGoal(balance: Int128, targets: [Int64: Int128]) -> [Int64: Int128] {
        let goals = targets.keys.sorted()
        let shares = Funding.funded(balance: balance, targets: goals.map { targets[$0]! })
        return Dictionary(uniqueKeysWithValues: zip(goals, shares))
    }
}
