import WalletWatchCore
import WalletWatchStore

extension MonthService {
    /// The plan of `month`: frozen once it started, else recomputed now from every active
    /// goal (required = what is missing / months left) and the user's custom amounts and skips.
    public func plan(for month: MonthLabel, refreshRates: RateRefresh = .ifNeeded) async throws -> (lines: [PlanLine], frozen: Bool, warnings: [String]) {
        if let record = try database.executionRecord(for: month), record.state != .draft,
           let snapshot = try database.snapshot(recordID: record.id) {
            let goals = Dictionary(uniqueKeysWithValues: try database.goals().map { ($0.id!, $0) })
            let lines = snapshot.goals.map { planned in
                PlanLine(goal: goals[planned.goalID] ?? Goal(id: planned.goalID, name: planned.name, currency: planned.currency,
                                                           target: 0, deadline: nil, status: .finished, createdAt: snapshot.capturedAt),
                         plan: Planner.Plan(goalID: planned.goalID, required: planned.required, custom: planned.custom, skipped: planned.skipped))
            }
            return (lines, true, [])
        }
        let overviews = try database.goalOverviews().filter { $0.goal.status == .active }
        let (progress, warnings) = await goals.progress(overviews, refreshRates: refreshRates)
        let overrides = try database.planOverrides(for: month)
        let lines = overviews.map { overview in
            let goal = overview.goal
            let override = overrides[goal.id!]
            let required = Planner.required(target: goal.target, funded: progress[goal.id!]?.funded ?? 0,
                                            deadline: goal.deadline, current: month)
            return PlanLine(goal: goal, plan: Planner.Plan(goalID: goal.id!, required: required, custom: override?.custom,
                                                           skipped: override?.skipped ?? false),
                            missingRates: progress[goal.id!]?.missingRates ?? [])
        }
        return (lines, false, warnings)
    }

    /// Sets a custom amount for a goal in a month (in the goal's currency).
    public func setPlannedAmount(goal name: String, amount: String, month: MonthLabel) throws -> Goal {
        let goal = try database.goal(named: name)
        let money = try AmountInput.parseMoney(amount, currency: goal.currency)
        guard money.minorUnits >= 0 else { throw UsageError("a planned amount must not be negative") }
        return try database.setPlan(month: month, goalName: name, custom: money.minorUnits, skipped: false)
    }

    /// Skips a goal for a month.
    public func skipGoal(_ name: String, month: MonthLabel) throws -> Goal {
        try database.setPlan(month: month, goalName: name, custom: nil, skipped: true)
    }

    /// Back to the required amount for a goal in a month.
    public func resetPlan(goal name: String, month: MonthLabel) throws -> Goal {
        try database.setPlan(month: month, goalName: name, custom: nil, skipped: false)
    }
}
