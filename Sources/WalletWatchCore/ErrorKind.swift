/// How an error should be reported to the user; the command line maps each kind to one exit code.
public enum ErrorKind: Sendable, Equatable {
    /// The input could not be understood: a malformed argument or option (exit 64).
    case usage
    /// The input was understood and refused by a rule: over-allocation, a future date, an
    /// unknown name (exit 65).
    case refused
    /// Something outside the user's input failed: a source, the database, a missing rate (exit 1).
    case runtime
}

/// An error that knows which ``ErrorKind`` it is. Its `description` is the one line the user sees.
public protocol Classified: Error, CustomStringConvertible {
    /// How the error is reported.
    var kind: ErrorKind { get }
}

/// A rule refused the user's input; the message says what was wrong and what to do instead.
public struct Refusal: Classified, Equatable {
    /// The one-line explanation.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var kind: ErrorKind { .refused }
}

/// The user's input could not be parsed; the message names the input and what is accepted.
public struct UsageError: Classified, Equatable {
    /// The one-line explanation.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var kind: ErrorKind { .usage }
}
