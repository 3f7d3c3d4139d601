import WalletWatchCore
import WalletWatchStore

/// Regular saving plans (SPEC.md section 19): added, listed, deleted, and brought up to date.
///
/// Bringing them up to date (``catchUp()``) handles every due date that has come (an
/// automatic plan's deposit recorded, a reminder's `plan.due` sent) and decides the reminders
/// whose deposits arrived or whose 7 days ran out. The daemon does it every minute and after
/// each ingest pass; `walletwatch ingest` (a periodic job's command), `saving-plan add` and
/// `saving-plan list` do it too, so that what they show is current. It is one write
/// transaction, and each due date happens once however often it runs.
public struct SavingPlans: Sendable {
    let database: AppDatabase
    let clock: WallClock

    init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Adds a plan (refused, with nothing stored, when SPEC.md section 19's checks fail).
    public func add(_ request: SavingPlanRequest) throws -> SavingPlan {
        try database.createSavingPlan(request, now: clock.now)
    }

    /// Deletes a plan and its occurrences; the deposits it recorded stay.
    public func delete(named name: String) throws -> SavingPlan {
        try database.deleteSavingPlan(named: name)
    }

    /// Every plan with its next due date and its latest occurrence, as stored.
    public func listings() throws -> [SavingPlanListing] {
        try database.savingPlanListings()
    }

    /// Handles every due date up to now and decides the pending reminders.
    public func catchUp() throws -> SavingPlanActivity {
        try database.catchUpSavingPlans(now: clock.now)
    }
}
