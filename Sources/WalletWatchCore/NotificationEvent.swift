/// Something walletwatch tells the `[[notify]]` targets about (SPEC.md section 18): what
/// happened, when, and its details, which become the webhook body's `"data"`.
///
/// An event is written to the outbox in the same write transaction as the change that causes
/// it (see `AppDatabase.enqueue(_:in:)`), so a crash neither loses one nor invents one.
public struct NotificationEvent: Hashable, Sendable {
    /// What happened.
    public let name: Name
    /// When it happened (the cause's time, from the injectable clock).
    public let at: Instant
    /// The event's details: an object whose fields CLI.md ("Webhook request") lists per event.
    public let data: JSONValue

    public init(_ name: Name, at: Instant, data: JSONValue) {
        self.name = name
        self.at = at
        self.data = data
    }

    /// The events of SPEC.md section 18, by their wire names, plus `test` (`notify test`).
    public enum Name: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
        /// A transaction the source reported for the first time.
        case transactionNew = "transaction.new"
        /// A pending transaction became confirmed.
        case transactionConfirmed = "transaction.confirmed"
        /// A pending transaction was dropped or replaced.
        case transactionFailed = "transaction.failed"
        /// Rule 1 or Rule 1b allocated a confirmed deposit to a goal.
        case allocationAuto = "allocation.auto"
        /// A goal's funded amount reached its target.
        case goalReached = "goal.reached"
        /// The month cycle closed a goal.
        case monthGoalClosed = "month.goal_closed"
        /// Three passes of a source in a row failed.
        case sourceFailing = "source.failing"
        /// A failing source's pass succeeded again.
        case sourceRecovered = "source.recovered"
        /// A reminder saving plan is due (SPEC.md section 19).
        case planDue = "plan.due"
        /// Sent by `walletwatch notify test` to one target only.
        case test

        /// The events a `[[notify]]` entry may subscribe to: all but `test`, which only
        /// `notify test` sends.
        public static var subscribable: [Name] { allCases.filter { $0 != .test } }

        public var description: String { rawValue }
    }
}
