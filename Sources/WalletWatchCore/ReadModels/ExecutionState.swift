/// Where a month is in its cycle.
public enum ExecutionState: String, Sendable, Codable {
    /// Planning: plans are recomputed on every read, nothing is tracked.
    case draft
    /// Tracking contributions since `startedAt`; plans frozen.
    case executing
    /// Completed: every figure frozen in the completed execution.
    case closed
}
