import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Creates an active goal.
    public func createGoal(name rawName: String, currency: Currency, target: Int128, deadline: Day?, now: Instant) throws -> Goal {
        let name = try Name.validated(rawName, what: "goal")
        guard target >= 0 else {
            throw Refusal("the target \(Money(minorUnits: target, currency: currency)) is negative; a goal saves towards a positive amount")
        }
        return try write { db in
            try Self.ensureNameIsFree(db, table: Goal.databaseTableName, name: name, what: "goal")
            var goal = Goal(name: name, currency: currency, target: target, deadline: deadline, createdAt: now)
            try goal.insert(db)
            try Self.bumpChangeCounter(db)
            return goal
        }
    }

    /// Every goal: active ones first, then finished, then cancelled; alphabetically within each.
    public func goals() throws -> [Goal] {
        try read { db in try Self.allGoals(db) }
    }

    /// The goal called `name` (case-insensitively), or a refusal naming it.
    public func goal(named name: String) throws -> Goal {
        try read { db in try Self.findGoal(db, named: name) }
    }

    /// Cancels a goal: its allocations are freed (targets set to 0, each change written to the
    /// allocation history) so that the money can go to other goals.
    public func cancelGoal(named name: String, now: Instant) throws -> Goal {
        try write { db in
            var goal = try Self.findGoal(db, named: name)
            guard goal.status == .active else {
                throw Refusal("goal '\(goal.name)' is already \(goal.status.rawValue); only an active goal can be cancelled")
            }
            for allocation in try Self.allocations(db, goalID: goal.id!) {
                try Self.writeTarget(db, assetID: allocation.assetID, goalID: allocation.goalID, amount: 0,
                                     at: now, now: now, reason: .cancel)
            }
            goal.status = .cancelled
            goal.finishedAt = now
            try goal.update(db)
            try Self.bumpChangeCounter(db)
            return goal
        }
    }

    /// Finishes a goal: it is kept with its allocations, which now count as spent (out of the
    /// assets' unallocated balances and out of planning).
    public func finishGoal(named name: String, now: Instant) throws -> Goal {
        try write { db in
            var goal = try Self.findGoal(db, named: name)
            guard goal.status == .active else {
                throw Refusal("goal '\(goal.name)' is already \(goal.status.rawValue); only an active goal can be finished")
            }
            goal.status = .finished
            goal.finishedAt = now
            try goal.update(db)
            try Self.bumpChangeCounter(db)
            return goal
        }
    }

    /// Deletes a goal with its allocations, history and plans. Closed months keep their frozen
    /// figures, which name the goal rather than point to it. A goal of the executing month is
    /// refused: the month's figures walk its allocation history, and its targets at the start
    /// would stay in them with nothing to say when they went (cancelling writes that down).
    public func deleteGoal(named name: String) throws -> Goal {
        try write { db in
            let goal = try Self.findGoal(db, named: name)
            if let executing = try Self.executing(db),
               executing.goalIDs.contains(goal.id!) {
                throw Refusal("goal '\(goal.name)' is part of \(executing.month), which is executing; `walletwatch goal cancel \(goal.name)` frees its allocations now, and it can be deleted once the month is completed")
            }
            try goal.delete(db)
            try Self.bumpChangeCounter(db)
            return goal
        }
    }

    static func allGoals(_ db: Database) throws -> [Goal] {
        let order: [GoalStatus: Int] = [.active: 0, .finished: 1, .cancelled: 2]
        return try Goal.fetchAll(db).sorted {
            (order[$0.status]!, $0.name.lowercased()) < (order[$1.status]!, $1.name.lowercased())
        }
    }

    static func findGoal(_ db: Database, named name: String) throws -> Goal {
        let key = Name.key(name)
        guard let goal = try Goal.fetchAll(db).first(where: { Name.key($0.name) == key }) else {
            throw Refusal("no goal named '\(name.trimmingSpaces)'; `walletwatch goal list` shows the goals")
        }
        return goal
    }
}
