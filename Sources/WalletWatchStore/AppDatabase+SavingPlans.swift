import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Stores the plan `request` asks for, after SPEC.md section 19's checks (the goal and the
    /// asset exist, the amount is positive, the frequency and method are known, `automatic`
    /// only on a manual asset, the name is free), or refuses it with nothing stored.
    public func createSavingPlan(_ request: SavingPlanRequest, now: Instant) throws -> SavingPlan {
        try write { db in
            let goal = try Self.findGoal(db, named: request.goal)
            let asset = try Self.findAsset(db, named: request.asset)
            var plan = try request.plan(goal: goal, asset: asset, today: now.day, now: now)
            try Self.ensureNameIsFree(db, table: SavingPlan.databaseTableName, name: plan.name, what: "saving plan")
            try plan.insert(db)
            try Self.bumpChangeCounter(db)
            return plan
        }
    }

    /// Deletes a plan with its occurrences. The deposits it recorded stay in the ledger: they
    /// are transactions like any other now.
    public func deleteSavingPlan(named name: String) throws -> SavingPlan {
        try write { db in
            let plan = try Self.findSavingPlan(db, named: name)
            try plan.delete(db)
            try Self.bumpChangeCounter(db)
            return plan
        }
    }

    /// Every plan, alphabetically, with its next due date and its latest occurrence.
    public func savingPlanListings() throws -> [SavingPlanListing] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT p.*, g.name AS goal_name, g.status AS goal_status, a.name AS asset_name,
                       o.due AS last_due, o.status AS last_status
                FROM saving_plans p
                JOIN goals g ON g.id = p.goal_id
                JOIN asset_rows a ON a.id = p.asset_id
                LEFT JOIN saving_plan_occurrences o
                    ON o.plan_id = p.id AND o.due = (SELECT MAX(due) FROM saving_plan_occurrences WHERE plan_id = p.id)
                """)
            return try rows.map { row in
                let plan = try SavingPlan(row: row)
                let goalStatus: GoalStatus = try row.decode(forColumn: "goal_status")
                let lastDue: Day? = try row.decode(forColumn: "last_due")
                let last = try lastDue.map { SavingPlanListing.Occurrence(due: $0, status: try row.decode(forColumn: "last_status")) }
                return SavingPlanListing(
                    plan: plan, goalName: try row.decode(forColumn: "goal_name"), goalStatus: goalStatus,
                    assetName: try row.decode(forColumn: "asset_name"),
                    nextDue: goalStatus == .active ? SavingSchedule.next(start: plan.start, every: plan.every, after: lastDue) : nil,
                    last: last)
            }.sorted { $0.plan.name.lowercased() < $1.plan.name.lowercased() }
        }
    }

    static func findSavingPlan(_ db: Database, named name: String) throws -> SavingPlan {
        let key = Name.key(name)
        guard let plan = try SavingPlan.fetchAll(db).first(where: { Name.key($0.name) == key }) else {
            throw Refusal("no saving plan named '\(name.trimmingSpaces)'; `walletwatch saving-plan list` shows the plans")
        }
        return plan
    }
}
