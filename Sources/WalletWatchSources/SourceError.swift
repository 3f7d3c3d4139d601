import WalletWatchCore
import WalletWatchNet

/// A source failed: unreachable, an HTTP error, or a response that does not match its API.
/// One line naming the source, the request, and the problem (with the field for bad data).
public struct SourceError: Classified, Equatable {
    /// What went wrong, for a caller that acts on the kind of failure (`walletwatch doctor`
    /// names a source that is down apart from one that refuses its token).
    public enum Cause: Sendable, Equatable {
        /// No answer: the connection failed, timed out, or broke off.
        case transport(NetError.Kind)
        /// An answer with an HTTP error status.
        case status(Int)
        /// A 2xx answer that is not what the API documents (not JSON, a missing field, a wrong type).
        case answer
        /// An answer in the API's own form saying that the server refused the call: a JSON-RPC
        /// error object (a range too wide for a provider, a method the node lacks, a revert).
        case refused
    }

    /// The configured source name.
    public let source: String
    /// `GET <url>` (without secrets).
    public let request: String
    public let problem: String
    /// The kind of failure, for callers that tell them apart.
    public let cause: Cause

    public init(source: String, request: String, problem: String, cause: Cause = .answer) {
        self.source = source
        self.request = request
        self.problem = problem
        self.cause = cause
    }

    public var description: String { "source '\(source)': \(request): \(problem)" }

    /// The same failure of a request made with `method` rather than GET.
    func with(method: String) -> SourceError {
        guard request.hasPrefix("GET ") else { return self }
        return SourceError(source: source, request: method + request.dropFirst(3), problem: problem, cause: cause)
    }
    public var kind: ErrorKind { .runtime }
}
