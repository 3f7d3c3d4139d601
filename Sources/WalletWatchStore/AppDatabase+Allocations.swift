import GRDB
import WalletWatchCore

extension AppDatabase {
    static func allocations(_ db: Database, goalID: Int64) throws -> [AllocationRow] {
        try AllocationRow.filter(Column("goal_id") == goalID).fetchAll(db)
    }

    static func allocations(_ db: Database, assetID: Int64) throws -> [AllocationRow] {
        try AllocationRow.filter(Column("asset_id") == assetID).fetchAll(db)
    }

    /// Sets the current target of (asset, goal) and appends the history row, unless the target
    /// is unchanged. A target of 0 removes the current row unless `keepZero` (a `100%`
    /// dedication of an empty asset, which Rule 1 needs to see).
    ///
    /// The history row is dated `at`, moved to 1 ms after the pair's latest row when that is
    /// later, so that a pair's history never goes back in time and its latest row (ties: the
    /// last written) always equals the current state.
    ///
    /// Rule 1 calls this once per auto-allocated deposit, tens of thousands of times in the first
    /// pass of a long history, so every statement is a cached one: GRDB's record requests build
    /// their SQL and prepare it afresh on each call, which cost more than the writes themselves.
    @discardableResult
    static func writeTarget(
        _ db: Database, assetID: Int64, goalID: Int64, amount: Int128, at timestamp: Instant, now: Instant,
        reason: AllocationReason, txid: String? = nil, keepZero: Bool = false
    ) throws -> Bool {
        let current = try StoredAmount.fetchOne(db.cachedStatement(sql: """
            SELECT amount FROM asset_allocations WHERE asset_id = ? AND goal_id = ?
            """), arguments: [assetID, goalID])?.value
        if amount == 0 && !keepZero {
            guard let current else { return false }
            try db.cachedStatement(sql: "DELETE FROM asset_allocations WHERE asset_id = ? AND goal_id = ?")
                .execute(arguments: [assetID, goalID])
            // Removing a 0 dedication changes no target: no history row.
            if current == 0 { return true }
        } else {
            if current == amount { return false }
            try db.cachedStatement(sql: """
                INSERT INTO asset_allocations (asset_id, goal_id, amount, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (asset_id, goal_id) DO UPDATE SET amount = excluded.amount, updated_at = excluded.updated_at
                """).execute(arguments: [assetID, goalID, StoredAmount(amount), now])
            // A new 0 dedication changes no target either (it was 0 before).
            if current == nil && amount == 0 { return true }
        }
        var timestamp = timestamp
        // Only a later row moves it: rows at the same instant are ordered by when they were written.
        if let latest = try latestHistoryTimestamp(db, assetID: assetID, goalID: goalID), latest > timestamp {
            timestamp = latest.adding(milliseconds: 1)
        }
        try db.cachedStatement(sql: """
            INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [assetID, goalID, StoredAmount(amount), timestamp, now, timestamp.monthLabel, reason, txid])
        return true
    }

    static func latestHistoryTimestamp(_ db: Database, assetID: Int64, goalID: Int64) throws -> Instant? {
        try Instant.fetchOne(db.cachedStatement(sql: """
            SELECT MAX(timestamp) FROM allocation_history WHERE asset_id = ? AND goal_id = ?
            """), arguments: [assetID, goalID])
    }
}

extension AppDatabase {
    /// Sets targets of an asset for goals, as `allocate ASSET GOAL=AMOUNT...`: amounts in the
    /// asset's currency (`0.25`, `25000sat`) or a share of its current balance (`40%`); 0
    /// removes an allocation; `100%` of an empty asset keeps a 0 allocation that dedicates it
    /// (Rule 1). The resulting set must fit in the balance, or nothing changes. Current state
    /// and history change in one transaction; a history row only for a target that changed.
    public func allocate(assetName: String, assignments: [(goal: String, amount: String)], now: Instant) throws -> AssetOverview {
        try write { db in
            let asset = try Self.findAsset(db, named: assetName)
            let assetID = asset.id!
            let balance = try Self.balances(db)[assetID]?.counted ?? 0
            var targets = Dictionary(uniqueKeysWithValues: try Self.rule1Allocations(db, assetID: assetID).map { ($0.goalID, $0.amount) })
            var parsed: [(goal: Goal, input: AmountInput, text: String)] = []
            for assignment in assignments {
                let goal = try Self.findGoal(db, named: assignment.goal)
                guard goal.status == .active else {
                    throw Refusal("goal '\(goal.name)' is \(goal.status.rawValue); only active goals take allocations")
                }
                guard !parsed.contains(where: { $0.goal.id == goal.id }) else {
                    throw UsageError("goal '\(goal.name)' is given twice; give each goal once")
                }
                parsed.append((goal, try AmountInput.parse(assignment.amount, currency: asset.currency, allowPercent: true), assignment.amount))
            }
            // The percentages of one command are shares of the same balance, rounded together.
            let percentages = parsed.compactMap { if case .percent(let percentage) = $0.input { percentage } else { nil } }
            var percentShares = Percentage.shares(of: balance, percentages).makeIterator()
            var requested: [(goal: Goal, amount: Int128, keepZero: Bool)] = []
            for (goal, input, text) in parsed {
                let amount: Int128
                var keepZero = false
                if case .percent(let percentage) = input {
                    amount = percentShares.next()!
                    keepZero = percentage.isWhole && balance == 0
                } else {
                    amount = input.resolve(balance: balance)
                }
                guard amount >= 0 else {
                    throw UsageError("'\(text)' is negative; a target is 0 or more (0 removes the allocation)")
                }
                requested.append((goal, amount, keepZero))
                targets[goal.id!] = amount
            }
            let total = targets.values.reduce(0, +)
            if total > balance {
                let money = { (minor: Int128) in Money(minorUnits: minor, currency: asset.currency).description }
                throw Refusal("allocations of '\(asset.name)' would total \(money(total)), above its balance of \(money(balance)) by \(money(total - balance)); lower some targets (GOAL=0 removes one)")
            }
            for (goal, amount, keepZero) in requested {
                try Self.writeTarget(db, assetID: assetID, goalID: goal.id!, amount: amount, at: now, now: now,
                                     reason: .allocate, keepZero: keepZero)
            }
            try Self.announceReachedGoals(now: now, in: db)
            try Self.bumpChangeCounter(db)
            return try Self.assetOverviews(db).first { $0.asset.id == assetID }!
        }
    }

    /// The allocation history of an asset, oldest first.
    public func allocationHistory(assetName: String) throws -> [AllocationHistoryEntry] {
        try read { db in
            let asset = try Self.findAsset(db, named: assetName)
            return try Row.fetchAll(db, sql: """
                SELECT g.name, h.amount, h.timestamp, h.reason, h.txid FROM allocation_history h JOIN goals g ON g.id = h.goal_id
                WHERE h.asset_id = ? ORDER BY h.timestamp, h.created_at, h.id
                """, arguments: [asset.id!]).map {
                AllocationHistoryEntry(goal: try $0.decode(forColumn: "name"), amount: try $0.amount("amount"),
                                       timestamp: try $0.decode(forColumn: "timestamp"), reason: try $0.decode(forColumn: "reason"),
                                       txid: try $0.decode(forColumn: "txid"))
            }
        }
    }

    /// The target of (asset, goal) at `instant`: the latest history row at or before it (ties:
    /// the latest written), else 0.
    public func target(assetID: Int64, goalID: Int64, at instant: Instant) throws -> Int128 {
        try read { db in try Self.target(db, assetID: assetID, goalID: goalID, at: instant) }
    }

    static func target(_ db: Database, assetID: Int64, goalID: Int64, at instant: Instant) throws -> Int128 {
        try latestTarget(db, assetID: assetID, goalID: goalID, at: instant) ?? 0
    }

    /// The latest history row of (asset, goal) at or before `instant` (ties: the latest
    /// written), found through the pair's index; nil when the pair has none.
    static func latestTarget(_ db: Database, assetID: Int64, goalID: Int64, at instant: Instant) throws -> Int128? {
        try StoredAmount.fetchOne(db.cachedStatement(sql: """
            SELECT amount FROM allocation_history WHERE asset_id = ? AND goal_id = ? AND timestamp <= ?
            ORDER BY timestamp DESC, created_at DESC, id DESC LIMIT 1
            """), arguments: [assetID, goalID, instant])?.value
    }
}

extension AppDatabase {
    /// Raises one target by `amount` as "add to close month" suggests (history reason
    /// `close-goal`), reading the current target in the same transaction, so that a change
    /// made in between is built upon rather than lost. Refused when the asset's targets would
    /// then exceed its balance. Returns the new target.
    @discardableResult
    public func raiseTarget(assetID: Int64, goalID: Int64, by amount: Int128, now: Instant) throws -> Int128 {
        try write { db in
            let balance = try Self.balances(db)[assetID]?.counted ?? 0
            var targets = Dictionary(uniqueKeysWithValues: try Self.rule1Allocations(db, assetID: assetID).map { ($0.goalID, $0.amount) })
            let raised = (targets[goalID] ?? 0) + amount
            targets[goalID] = raised
            let total = targets.values.reduce(0, +)
            guard total <= balance else {
                throw Refusal("the asset's targets would total \(total) minor units, above its balance of \(balance); nothing changed")
            }
            try Self.writeTarget(db, assetID: assetID, goalID: goalID, amount: raised, at: now, now: now, reason: .closeGoal)
            try Self.announceReachedGoals(now: now, in: db)
            try Self.bumpChangeCounter(db)
            return raised
        }
    }
}
