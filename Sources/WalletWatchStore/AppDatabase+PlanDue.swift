import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Sends `plan.due` for one reminder, inside the write that opens its occurrence.
    ///
    /// PLACEHOLDER until the notifications outbox (branch `notify`) is merged: then this
    /// enqueues the event there and returns whether any target listens. Until then nothing is
    /// sent and it returns false.
    static func enqueuePlanDue(_ db: Database, plan: SavingPlan, goal: String, asset: String, due: Day, now: Instant) throws -> Bool {
        false
    }
}
