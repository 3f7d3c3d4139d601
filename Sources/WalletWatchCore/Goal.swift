/// Where a goal is in its life. Only active goals take part in planning and Rule 1.
public enum GoalStatus: String, Sendable, CaseIterable, Codable {
    /// Being saved for.
    case active
    /// Abandoned: its allocations were freed (targets set to 0).
    case cancelled
    /// Achieved: its allocations are kept and count as spent.
    case finished
}

/// A savings target in one currency, with an optional deadline.
public struct Goal: Hashable, Sendable {
    public var id: Int64?
    /// A unique name (compared case-insensitively).
    public var name: String
    public var currency: Currency
    /// The amount to reach, in the goal currency's minor units.
    public var target: Int128
    public var deadline: Day?
    public var status: GoalStatus
    public var createdAt: Instant
    /// When the goal was finished or cancelled.
    public var finishedAt: Instant?

    public init(
        id: Int64? = nil, name: String, currency: Currency, target: Int128, deadline: Day?,
        status: GoalStatus = .active, createdAt: Instant, finishedAt: Instant? = nil
    ) {
        self.id = id
        self.name = name
        self.currency = currency
        self.target = target
        self.deadline = deadline
        self.status = status
        self.createdAt = createdAt
        self.finishedAt = finishedAt
    }
}
