/// The user's choices for a goal in a month: a custom amount or a skip.
public struct PlanOverride: Hashable, Sendable {
    public let goalID: Int64
    public let custom: Int128?
    public let skipped: Bool

    public init(goalID: Int64, custom: Int128?, skipped: Bool) {
        self.goalID = goalID
        self.custom = custom
        self.skipped = skipped
    }
}
