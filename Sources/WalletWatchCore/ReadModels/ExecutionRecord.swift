/// One month's record (MonthlyExecutionRecord).
public struct ExecutionRecord: Hashable, Sendable {
    public let id: Int64
    public let month: MonthLabel
    public let state: ExecutionState
    public let startedAt: Instant?
    public let completedAt: Instant?
    /// Until when the last step (start or complete) can be undone.
    public let canUndoUntil: Instant?
    public let goalIDs: [Int64]

    public init(id: Int64, month: MonthLabel, state: ExecutionState, startedAt: Instant?, completedAt: Instant?, canUndoUntil: Instant?, goalIDs: [Int64]) {
        self.id = id
        self.month = month
        self.state = state
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.canUndoUntil = canUndoUntil
        self.goalIDs = goalIDs
    }
}
