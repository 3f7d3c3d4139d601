/// Counters of an ``HTTPClient`` since it was made, for a metrics endpoint.
public struct HTTPClientStatistics: Sendable, Equatable {
    /// Calls to `send` or `stream`.
    public var requests: Int
    /// Attempts made, first ones and retries (a request refused before sending makes none).
    public var attempts: Int
    /// Attempts that were retries of an earlier one.
    public var retries: Int
    /// Calls that ended in a ``NetError`` other than cancellation.
    public var failures: Int
    /// Connections opened; fewer than `attempts` means kept-alive connections were reused.
    public var connectionsOpened: Int

    /// Counters, all zero unless given.
    public init(requests: Int = 0, attempts: Int = 0, retries: Int = 0, failures: Int = 0, connectionsOpened: Int = 0) {
        self.requests = requests
        self.attempts = attempts
        self.retries = retries
        self.failures = failures
        self.connectionsOpened = connectionsOpened
    }
}
