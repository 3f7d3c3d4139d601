import Hummingbird

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
    var httpStatus: HTTPResponse.Status {
        switch code {
        case .notFound: .notFound
        case .conflict: .conflict
        case .invalid: .badRequest
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
