import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Enqueues `plan.due` for one reminder inside the write that opens its occurrence, so that
    /// the event and the occurrence commit together (each due date's event once). `data`:
    /// plan, goal, asset, amount (minor units), currency, due. Returns whether any `[[notify]]`
    /// target listens (the occurrence keeps it as `notified`).
    static func enqueuePlanDue(_ db: Database, plan: SavingPlan, goal: String, asset: String, due: Day, now: Instant) throws -> Bool {
        let event = NotificationEvent(.planDue, at: now, data: .object([
            "plan": .string(plan.name),
            "goal": .string(goal),
            "asset": .string(asset),
            "amount": .int(plan.amount),
            "currency": .string(plan.currency.code),
            "due": .string(due.description),
        ]))
        return try enqueue(event, in: db) != nil
    }
}
