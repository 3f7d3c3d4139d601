import WalletWatchCore
import WalletWatchStore

extension Engine {
    /// Creates a goal; `target` is in the goal's currency as the user wrote it.
    public func addGoal(name: String, currency: Currency, target: Money, deadline: Day?) throws -> Goal {
        try database.createGoal(name: name, currency: currency, target: target.minorUnits, deadline: deadline, now: clock.now)
    }

    /// Cancels a goal and frees its allocations.
    public func cancelGoal(named name: String) throws -> Goal {
        try database.cancelGoal(named: name, now: clock.now)
    }

    /// Finishes a goal; its allocations count as spent.
    public func finishGoal(named name: String) throws -> Goal {
        try database.finishGoal(named: name, now: clock.now)
    }

    /// Deletes a goal with its allocations and plans.
    public func deleteGoal(named name: String) throws -> Goal {
        try database.deleteGoal(named: name)
    }
}

extension Engine {
    /// Every goal's funded amount and progress (SPEC.md section 9), converting each asset's
    /// share to the goal's currency at current rates (refreshed when needed and stale).
    public func goalProgress(_ overviews: [GoalOverview], refreshRates: RateRefresh = .ifNeeded) async -> (progress: [Int64: GoalProgress], warnings: [String]) {
        let needed = Set(overviews.flatMap { overview in
            overview.shares.map { CurrencyPair(base: $0.asset.currency, quote: overview.goal.currency) }
        })
        let rates = await self.rates(for: needed, refresh: refreshRates)
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
}
