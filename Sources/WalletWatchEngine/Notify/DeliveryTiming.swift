import WalletWatchCore

/// When the outbox tries a delivery again (SPEC.md section 18): 30 s after the first failed
/// attempt, doubling after each further one, at most 1 h apart, for 24 h after the first
/// attempt; then the delivery is `failed`. Times are the injectable clock's, stored with the
/// delivery, so that a restart keeps the schedule and tests can move time.
public struct DeliveryTiming: Sendable, Equatable {
    /// The wait after the first failed attempt.
    public var firstRetry: Duration
    /// No wait between two attempts is longer.
    public var maxRetry: Duration
    /// How long after its first attempt a delivery is given up.
    public var giveUpAfter: Duration
    /// The whole request's time limit: a target slower than this counts as a failed attempt.
    public var attemptTimeout: Duration
    /// How often the daemon looks for new or due deliveries (other processes write events too).
    public var poll: Duration

    public init(firstRetry: Duration = .seconds(30), maxRetry: Duration = .seconds(3600), giveUpAfter: Duration = .seconds(24 * 3600),
                attemptTimeout: Duration = .seconds(10), poll: Duration = .seconds(1)) {
        self.firstRetry = firstRetry
        self.maxRetry = maxRetry
        self.giveUpAfter = giveUpAfter
        self.attemptTimeout = attemptTimeout
        self.poll = poll
    }

    /// When to try again after the `attempts`-th attempt (1 for the first) failed at `now`,
    /// the first having been made at `firstAttempt`; nil when the next try would fall more
    /// than ``giveUpAfter`` after the first: the delivery has failed.
    public func retryAt(afterAttempts attempts: Int, failedAt now: Instant, firstAttempt: Instant) -> Instant? {
        let first = Self.milliseconds(firstRetry)
        let cap = Self.milliseconds(maxRetry)
        // Doubling stops at the cap long before it could overflow.
        var wait = first
        for _ in 1..<max(1, attempts) where wait < cap { wait *= 2 }
        let next = now.adding(milliseconds: min(wait, cap))
        guard next <= firstAttempt.adding(milliseconds: Self.milliseconds(giveUpAfter)) else { return nil }
        return next
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
