/// One event's delivery to one `[[notify]]` target, as `notify log` lists it.
public struct NotificationDelivery: Hashable, Sendable {
    /// Where a delivery is.
    public enum Status: String, Sendable, CaseIterable {
        /// Waiting for its first attempt or its next retry.
        case pending
        /// The target answered 2xx.
        case delivered
        /// Given up: 24 hours of retries passed, or the target left the config.
        case failed
    }

    /// The event's id (`X-Walletwatch-Delivery`).
    public let id: String
    /// The event's name (`transaction.new`...).
    public let event: String
    /// The `[[notify]]` entry's name.
    public let target: String
    public let status: Status
    /// Attempts made so far.
    public let attempts: Int
    /// When the event was written to the outbox.
    public let createdAt: Instant
    public let deliveredAt: Instant?
    /// The last failed attempt's reason, one line.
    public let lastError: String?
    /// When the next attempt is due (pending deliveries that failed before).
    public let nextAttemptAt: Instant?

    /// A delivery as the outbox holds it.
    public init(id: String, event: String, target: String, status: Status, attempts: Int, createdAt: Instant,
                deliveredAt: Instant?, lastError: String?, nextAttemptAt: Instant? = nil) {
        self.id = id
        self.event = event
        self.target = target
        self.status = status
        self.attempts = attempts
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
    }
}
