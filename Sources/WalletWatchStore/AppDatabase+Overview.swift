import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Every asset with its balance and targets.
    public func assetOverviews() throws -> [AssetOverview] {
        try read { db in try Self.assetOverviews(db) }
    }

    /// One asset with its balance and targets.
    public func assetOverview(named name: String) throws -> AssetOverview {
        try read { db in
            let asset = try Self.findAsset(db, named: name)
            return try Self.assetOverviews(db).first { $0.asset.id == asset.id }!
        }
    }

    /// Every goal with its shares of the assets.
    public func goalOverviews() throws -> [GoalOverview] {
        try read { db in try Self.goalOverviews(db) }
    }

    /// One goal with its shares of the assets.
    public func goalOverview(named name: String) throws -> GoalOverview {
        try read { db in
            let goal = try Self.findGoal(db, named: name)
            return try Self.goalOverviews(db).first { $0.goal.id == goal.id }!
        }
    }

    static func assetOverviews(_ db: Database) throws -> [AssetOverview] {
        let balances = try balances(db)
        let goals = try Dictionary(uniqueKeysWithValues: Goal.fetchAll(db).map { ($0.id!, $0) })
        let allocations = try Dictionary(grouping: AllocationRow.fetchAll(db), by: \.assetID)
        return try Asset.order(Column("name").collating(.nocase)).fetchAll(db).map { asset in
            let rows = (allocations[asset.id!] ?? []).compactMap { row in
                goals[row.goalID].map { AssetOverview.Allocation(goal: $0, amount: row.amount) }
            }.sorted { $0.goal.name.lowercased() < $1.goal.name.lowercased() }
            let balance = balances[asset.id!] ?? AssetBalance(counted: 0)
            let summary = AllocationSummary(balance: balance.counted, targets: rows.map {
                .init(goalID: $0.goal.id!, goalStatus: $0.goal.status, amount: $0.amount)
            })
            return AssetOverview(asset: asset, balance: balance, allocations: rows, summary: summary)
        }
    }

    static func goalOverviews(_ db: Database) throws -> [GoalOverview] {
        let assets = try assetOverviews(db)
        return try allGoals(db).map { goal in
            let shares = assets.compactMap { overview -> GoalOverview.Share? in
                guard let allocation = overview.allocations.first(where: { $0.goal.id == goal.id }) else { return nil }
                return GoalOverview.Share(asset: overview.asset, allocated: allocation.amount,
                                          funded: overview.summary.funded[goal.id!] ?? 0)
            }
            return GoalOverview(goal: goal, shares: shares)
        }
    }
}
