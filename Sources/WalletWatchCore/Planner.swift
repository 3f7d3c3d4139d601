/// Monthly planning (SPEC.md section 11).
public enum Planner {
    /// Months left for a deadline, counting the current month through the deadline's month,
    /// and at least 1 (a passed deadline asks for everything now).
    public static func monthsLeft(current: MonthLabel, deadline: Day) -> Int {
        max(1, deadline.monthLabel.months(since: current) + 1)
    }

    /// What a goal needs this month: what is still missing, spread over the months left
    /// (rounded half to even). A goal without a deadline requires nothing; set a custom amount.
    public static func required(target: Int128, funded: Int128, deadline: Day?, current: MonthLabel) -> Int128 {
        guard let deadline else { return 0 }
        let missing = max(0, target - funded)
        return Rounding.halfEven(missing, Int128(monthsLeft(current: current, deadline: deadline)))
    }

    /// One goal's plan for a month.
    public struct Plan: Hashable, Sendable {
        public let goalID: Int64
        public let required: Int128
        /// A custom amount the user set for the month, replacing `required`.
        public let custom: Int128?
        public let skipped: Bool

        public init(goalID: Int64, required: Int128, custom: Int128?, skipped: Bool) {
            self.goalID = goalID
            self.required = required
            self.custom = custom
            self.skipped = skipped
        }

        /// What the month aims to contribute: 0 when skipped, else the custom amount or the required one.
        public var planned: Int128 { skipped ? 0 : (custom ?? required) }
    }
}

/// One goal's figures for a month, in the goal's currency.
public struct GoalMonthFigures: Hashable, Sendable {
    public let planned: Int128
    public let contributed: Int128

    public init(planned: Int128, contributed: Int128) {
        self.planned = planned
        self.contributed = contributed
    }

    /// What is left to close the month for the goal: never negative.
    public var remaining: Int128 { max(0, planned - contributed) }
    /// The month is closed for the goal once nothing remains.
    public var closed: Bool { remaining == 0 }
}
