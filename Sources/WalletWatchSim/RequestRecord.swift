/// One request the simulator received (control requests are not recorded).
public struct RequestRecord: Sendable, Hashable, Codable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The path without the query, e.g. `/esplora/address/bc1q.../txs`.
    public var path: String
    /// The raw query string, without `?`; nil when there was none.
    public var query: String?
    /// When it arrived, on the simulator's clock.
    public var time: SimTime
    /// The fault served instead of (or on top of) the normal answer, e.g. `status 503`.
    public var fault: String?

    /// A record of one request.
    public init(method: String, path: String, query: String? = nil, time: SimTime, fault: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.time = time
        self.fault = fault
    }
}
