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
    /// How many requests to the simulated APIs were being answered when this one arrived, this
    /// one included: how many a client had in flight.
    public var inFlight: Int?

    /// A record of one request.
    public init(method: String, path: String, query: String? = nil, time: SimTime, fault: String? = nil, inFlight: Int? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.time = time
        self.fault = fault
        self.inFlight = inFlight
    }

    private enum CodingKeys: String, CodingKey { case method, path, query, time, fault, inFlight = "in_flight" }
}
