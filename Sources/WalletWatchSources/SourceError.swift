import WalletWatchCore
import WalletWatchNet

/// A source failed: unreachable, an HTTP error, or a response that does not match its API.
/// One line naming the source, the request, and the problem (with the field for bad data).
public struct SourceError: Classified, Equatable {
    /// The configured source name.
    public let source: String
    /// `GET <url>` (without secrets).
    public let request: String
    public let problem: String

    public init(source: String, request: String, problem: String) {
        self.source = source
        self.request = request
        self.problem = problem
    }

    public var description: String { "source '\(source)': \(request): \(problem)" }
    public var kind: ErrorKind { .runtime }
}
