/// One JSON-RPC call the Electrum face received, for tests that count requests and round trips:
/// each call of a batch is a record of its own, with the batch's number; calls that arrived in
/// the same read from the socket share their `write` number.
public struct ElectrumRequestRecord: Sendable, Hashable, Codable {
    /// The connection, numbered from 1 in order of arrival.
    public var connection: Int
    /// `tcp` or `tls`.
    public var transport: String
    /// The read from the socket that completed the call's line, numbered from 1 per connection: a
    /// client's write of several lines (or one batch) is one number, one round trip.
    public var write: Int
    /// The batch (a JSON array line) the call was part of, numbered from 1 per connection; nil
    /// for a call on a line of its own.
    public var batch: Int?
    /// The method called.
    public var method: String
    /// Its params as sent (absent: null).
    public var params: JSONValue
    /// Its id; nil for a notification.
    public var id: JSONValue?
    /// When it arrived, on the simulator's clock.
    public var time: SimTime
    /// The fault served on it, if any.
    public var fault: String?

    /// A record of one call.
    public init(connection: Int, transport: String, write: Int, batch: Int?, method: String, params: JSONValue, id: JSONValue?,
                time: SimTime, fault: String?) {
        self.connection = connection
        self.transport = transport
        self.write = write
        self.batch = batch
        self.method = method
        self.params = params
        self.id = id
        self.time = time
        self.fault = fault
    }
}
