/// How often a regular saving plan falls due (SPEC.md section 19).
public enum PlanFrequency: String, Sendable, CaseIterable, Codable {
    /// Every day from the start.
    case day
    /// Every 7 days from the start.
    case week
    /// On the start's day of every month (the month's last day when it is shorter).
    case month
}

/// What happens on a plan's due date.
public enum PlanMethod: String, Sendable, CaseIterable, Codable {
    /// `plan.due` is sent; the occurrence is fulfilled by the deposits that arrive within 7 days.
    case reminder
    /// The deposit is recorded as a manual transaction dated the due date (manual assets only).
    case automatic
}

/// Where one due date of a plan stands.
public enum OccurrenceStatus: String, Sendable, CaseIterable, Codable {
    /// An automatic plan's deposit was recorded.
    case recorded
    /// A reminder was sent; its 7 days are not over and the deposits so far do not cover it.
    case pending
    /// Confirmed deposits of at least the amount arrived within the 7 days.
    case fulfilled
    /// The 7 days passed without enough.
    case missed
}

/// A regular saving plan: an amount to put into an asset for a goal on every due date.
public struct SavingPlan: Hashable, Sendable {
    /// The database id; nil before the plan is stored.
    public var id: Int64?
    /// A unique name (compared case-insensitively).
    public var name: String
    /// The goal the saving is for.
    public var goalID: Int64
    /// The asset the money goes into.
    public var assetID: Int64
    /// Minor units of `currency`; always positive.
    public var amount: Int128
    /// The currency of `amount` (an automatic plan's is always its asset's).
    public var currency: Currency
    /// How often it falls due.
    public var every: PlanFrequency
    /// The first due date.
    public var start: Day
    /// What happens on a due date.
    public var method: PlanMethod
    /// When the plan was added.
    public var createdAt: Instant

    public init(id: Int64? = nil, name: String, goalID: Int64, assetID: Int64, amount: Int128, currency: Currency,
                every: PlanFrequency, start: Day, method: PlanMethod, createdAt: Instant) {
        self.id = id
        self.name = name
        self.goalID = goalID
        self.assetID = assetID
        self.amount = amount
        self.currency = currency
        self.every = every
        self.start = start
        self.method = method
        self.createdAt = createdAt
    }

    /// The plan's amount as money.
    public var money: Money { Money(minorUnits: amount, currency: currency) }
}
