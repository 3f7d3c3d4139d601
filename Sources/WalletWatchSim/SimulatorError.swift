/// Why a scenario, a control request or a Swift mutation was refused.
public struct SimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal; the control API maps it to an HTTP status.
    public enum Code: Sendable, Hashable {
        /// No such wallet, movement or transaction (404).
        case notFound
        /// It already exists (409).
        case conflict
        /// The input is malformed or inconsistent (400).
        case invalid
    }

    /// What kind of refusal it is.
    public let code: Code
    /// One line a person can act on.
    public let message: String

    /// An error of this kind with this message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The control API's HTTP status for this error.
    var httpStatus: Int {
        switch code {
        case .notFound: 404
        case .conflict: 409
        case .invalid: 400
        }
    }

    /// A one-line account of a decoding error: the path to the field and what was wrong.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

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
