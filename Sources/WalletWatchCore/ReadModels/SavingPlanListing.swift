/// A saving plan as `saving-plan list` and the live views show it.
public struct SavingPlanListing: Hashable, Sendable {
    /// One due date that has been handled, and where it stands.
    public struct Occurrence: Hashable, Sendable {
        /// The due date.
        public let due: Day
        /// Where it stands.
        public let status: OccurrenceStatus

        public init(due: Day, status: OccurrenceStatus) {
            self.due = due
            self.status = status
        }
    }

    /// The plan as stored.
    public let plan: SavingPlan
    /// Its goal's name.
    public let goalName: String
    /// Its goal's status (a plan of a goal that is not active rests).
    public let goalStatus: GoalStatus
    /// Its asset's name.
    public let assetName: String
    /// The next due date not handled yet; nil while the goal is not active (the plan rests).
    public let nextDue: Day?
    /// The latest due date handled, with its status; nil before the first.
    public let last: Occurrence?

    public init(plan: SavingPlan, goalName: String, goalStatus: GoalStatus, assetName: String, nextDue: Day?, last: Occurrence?) {
        self.plan = plan
        self.goalName = goalName
        self.goalStatus = goalStatus
        self.assetName = assetName
        self.nextDue = nextDue
        self.last = last
    }
}

/// What bringing the saving plans up to date did: the due dates handled and the reminders
/// decided, in order, and what could not be done.
public struct SavingPlanActivity: Hashable, Sendable {
    /// One thing done for one due date of one plan.
    public struct Entry: Hashable, Sendable {
        /// The plan's name.
        public let plan: String
        /// The due date.
        public let due: Day
        /// `recorded`: a deposit recorded (automatic); `pending`: a reminder opened (with
        /// `plan.due` sent when its 7 days are not over); `fulfilled`, `missed`: decided.
        public let status: OccurrenceStatus
        /// The transaction recorded (automatic) or the deposits that fulfilled the reminder.
        public let txids: [String]
        /// Whether `plan.due` was enqueued for it.
        public let notified: Bool

        public init(plan: String, due: Day, status: OccurrenceStatus, txids: [String], notified: Bool) {
            self.plan = plan
            self.due = due
            self.status = status
            self.txids = txids
            self.notified = notified
        }
    }

    public var entries: [Entry]
    /// Plans that could not be brought up to date, and why (one line each).
    public var warnings: [String]

    public init(entries: [Entry] = [], warnings: [String] = []) {
        self.entries = entries
        self.warnings = warnings
    }
}
