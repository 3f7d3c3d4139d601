import WalletWatchCore

/// One JSON-RPC call of the Electrum protocol: a method and its positional parameters.
public struct ElectrumCall: Sendable, Hashable {
    /// A parameter: Electrum's methods take strings, integers, booleans and lists of strings.
    public enum Parameter: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case strings([String])
    }

    public var method: String
    public var parameters: [Parameter]

    /// A call of `method` with `parameters`.
    public init(_ method: String, _ parameters: [Parameter] = []) {
        self.method = method
        self.parameters = parameters
    }

    /// The request as one line of JSON (without its newline), with `id`, written by Core's
    /// ``JSONValue`` (the same escaping as every JSON walletwatch prints).
    func line(id: Int) -> [UInt8] {
        let request: JSONValue = .object([
            "jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(method), "params": .array(parameters.map(\.json)),
        ])
        return Array(request.compact.utf8)
    }
}

extension ElectrumCall.Parameter {
    /// The parameter as JSON.
    var json: JSONValue {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .int(value)
        case .bool(let value): .bool(value)
        case .strings(let values): .array(values.map(JSONValue.string))
        }
    }
}

/// A server's answer to one call: its result as JSON (read by whoever made the call), or
/// the error object it sent instead.
public enum ElectrumReply: Sendable, Hashable {
    case result([UInt8])
    case error(code: Int64?, message: String)
}

/// A reply and the number of the line it arrived on (1 for the connection's first line): what
/// orders it against the notifications, which are numbered the same way.
public struct NumberedReply: Sendable, Hashable {
    public let reply: ElectrumReply
    public let line: Int
}

/// A message the server sent on its own: a subscription's notification.
public struct ElectrumNotification: Sendable, Hashable {
    /// `blockchain.scripthash.subscribe` or `blockchain.headers.subscribe`.
    public let method: String
    /// The `params` array as JSON.
    public let parameters: [UInt8]
    /// The number of the line it arrived on (see ``NumberedReply``).
    public var line = 0

    public init(method: String, parameters: [UInt8], line: Int = 0) {
        self.method = method
        self.parameters = parameters
        self.line = line
    }
}
