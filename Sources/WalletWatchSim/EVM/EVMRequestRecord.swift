/// One call the EVM face answered: a JSON-RPC call (one element of a batch counts as one) or an
/// explorer request. `request` numbers the HTTP requests, so calls that share one came in one
/// batch; a pass that costs one request shows one number. What the tests and the benchmark
/// count (`GET /control/evm/requests`).
public struct EVMRequestRecord: Sendable, Codable, Hashable {
    /// `rpc`, `etherscan` or `blockscout`.
    public var face: String
    /// The HTTP request it came in, counted from 1 since start or the last reset.
    public var request: Int
    /// The batch's size when it came in one (JSON-RPC), else nil.
    public var batch: Int?
    /// The JSON-RPC method, or the explorer's `module.action`.
    public var method: String
    /// The JSON-RPC params, or the explorer's query (its `apikey` replaced by `<redacted>`).
    public var params: JSONValue?
    /// The simulator's clock when it was answered.
    public var time: SimTime
    /// The EVM faults that changed its answer.
    public var faults: [String]
}
