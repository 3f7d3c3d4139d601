import WalletWatchCore
import WalletWatchStore

/// Each asset's targets for goals and their timestamped history (SPEC.md section 8).
public struct Allocations: Sendable {
    let database: AppDatabase
    let clock: WallClock

    init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Sets an asset's targets for goals (`allocate ASSET GOAL=AMOUNT...`), all or none.
    public func allocate(asset: String, assignments: [(goal: String, amount: String)]) throws -> AssetOverview {
        try database.allocate(assetName: asset, assignments: assignments, now: clock.now)
    }

    /// The asset's allocation history, oldest first.
    public func history(asset name: String) throws -> (asset: Asset, entries: [AllocationHistoryEntry]) {
        (try database.asset(named: name), try database.allocationHistory(assetName: name))
    }
}
