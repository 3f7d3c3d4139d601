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
    /// Converts between currencies with what the engine knows of rates.
    public var converter: any CurrencyConverter { NoRates() }

    /// A goal's funded amount and progress (SPEC.md section 9).
    public func progress(of overview: GoalOverview) -> GoalProgress {
        GoalProgress(
            goal: overview.goal,
            shares: overview.shares.map { Money(minorUnits: $0.funded, currency: $0.asset.currency) },
            converter: converter)
    }
}
