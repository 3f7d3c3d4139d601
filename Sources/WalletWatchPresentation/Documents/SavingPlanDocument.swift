import WalletWatchCore
import WalletWatchEngine

/// The JSON shape of a saving plan (CLI.md: `saving-plan list` prints an array of them).
public enum SavingPlanDocument {
    public static func json(_ listing: SavingPlanListing) -> JSONValue {
        let plan = listing.plan
        return .object([
            "name": .string(plan.name),
            "goal": .string(listing.goalName),
            "asset": .string(listing.assetName),
            "amount": .int(plan.amount),
            "currency": .string(plan.currency.code),
            "every": .string(plan.every.rawValue),
            "method": .string(plan.method.rawValue),
            "next_due": .string(listing.nextDue?.description),
            "last": listing.last.map { .object(["due": .string($0.due.description), "status": .string($0.status.rawValue)]) } ?? .null,
        ])
    }
}

/// The next saving plan due, as the live views (`watch` and the web page) show it: one line
/// made here for both, so that they say the same thing.
public enum NextSavingPlan {
    /// `House monthly: 100.00 EUR into Cash on 2026-12-01 (automatic; last 2026-11-01 recorded)`
    /// for the plan due first (ties: by name), or nil when no plan is due (none, or every
    /// plan's goal is not active).
    public static func line(_ listings: [SavingPlanListing], today: Day) -> String? {
        guard let next = listings.filter({ $0.nextDue != nil })
            .min(by: { ($0.nextDue!, $0.plan.name.lowercased()) < ($1.nextDue!, $1.plan.name.lowercased()) }),
            let due = next.nextDue
        else { return nil }
        let plan = next.plan
        let when = due < today ? "overdue since \(due)" : due == today ? "today (\(due))" : "on \(due)"
        var text = "\(plan.name): \(DisplayFormat.money(plan.amount, plan.currency)) into \(next.assetName) for \(next.goalName) \(when)"
        text += " (\(plan.method.rawValue)"
        if let last = next.last { text += "; last \(last.due) \(last.status.rawValue)" }
        return text + ")"
    }
}
