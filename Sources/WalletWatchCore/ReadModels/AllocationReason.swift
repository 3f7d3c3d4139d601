/// Who wrote an allocation-history row.
public enum AllocationReason: String, Sendable, Codable {
    /// `walletwatch allocate`.
    case allocate
    /// Rule 1: a confirmed transaction on an asset dedicated to one goal.
    case rule1
    /// Rule 1b: a confirmed deposit to a goal's reserved address.
    case rule1b
    /// An auto-allocated manual transaction was edited or deleted.
    case rule1Adjust = "rule1-adjust"
    /// The goal was cancelled and its targets freed.
    case cancel
    /// `month close-goal --apply`.
    case closeGoal = "close-goal"
}
