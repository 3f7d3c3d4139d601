import WalletWatchCore
import WalletWatchStore

/// Savings goals (SPEC.md section 9): their lifecycle, and how far each is funded now.
public struct GoalBook: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let rates: RateBook

    init(database: AppDatabase, clock: WallClock, rates: RateBook) {
        self.database = database
        self.clock = clock
        self.rates = rates
    }

    /// Creates a goal; `target` is in the goal's currency as the user wrote it.
    public func add(name: String, currency: Currency, target: Money, deadline: Day?) throws -> Goal {
        try database.createGoal(name: name, currency: currency, target: target.minorUnits, deadline: deadline, now: clock.now)
    }

    /// Cancels a goal and frees its allocations.
    public func cancel(named name: String) throws -> Goal {
        try database.cancelGoal(named: name, now: clock.now)
    }

    /// Finishes a goal; its allocations count as spent.
    public func finish(named name: String) throws -> Goal {
        try database.finishGoal(named: name, now: clock.now)
    }

    /// Deletes a goal with its allocations and plans.
    public func delete(named name: String) throws -> Goal {
        try database.deleteGoal(named: name)
    }

    /// Every goal's funded amount and progress (SPEC.md section 9), converting each asset's
    /// share to the goal's currency at current rates (refreshed when needed and stale).
    public func progress(_ overviews: [GoalOverview], refreshRates: RateRefresh = .ifNeeded) async -> (progress: [Int64: GoalProgress], warnings: [String]) {
        let needed = Set(overviews.flatMap { overview in
            overview.shares.map { CurrencyPair(base: $0.asset.currency, quote: overview.goal.currency) }
        })
        let rates = await self.rates.current(for: needed, refresh: refreshRates)
        let progress = Dictionary(uniqueKeysWithValues: overviews.map { ($0.goal.id!, self.progress(of: $0, converter: rates.table)) })
        return (progress, rates.warnings)
    }

    /// A goal's funded amount and progress with the given rates.
    public func progress(of overview: GoalOverview, converter: any CurrencyConverter) -> GoalProgress {
        GoalProgress(
            goal: overview.goal,
            shares: overview.shares.map { Money(minorUnits: $0.funded, currency: $0.asset.currency) },
            converter: converter)
    }

    /// Every goal with its shares of the assets.
    public func overviews() throws -> [GoalOverview] {
        try database.goalOverviews()
    }

    /// One goal with its shares of the assets.
    public func overview(named name: String) throws -> GoalOverview {
        try database.goalOverview(named: name)
    }
}
