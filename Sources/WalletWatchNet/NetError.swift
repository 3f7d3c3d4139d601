import Foundation

/// A transport failure. Its description is one line naming the request's URL (without
/// credentials or secret query values), or a stream's `tcp://HOST:PORT` / `ssl://HOST:PORT`,
/// and what happened.
public struct NetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, for callers that act on it (retry, tell the user where to look).
    public enum Kind: Sendable, Equatable {
        /// The URL could not be parsed.
        case invalidURL
        /// A scheme other than http or https, also as a redirect target.
        case protocolNotAllowed
        /// A redirect to another scheme, host or port: only the request's own origin is followed.
        case redirectRefused
        /// No connection: refused, unreachable, DNS failure, reset, or the connect timeout
        /// (also when a proxy reports one of these about the server).
        case connectionFailed
        /// The proxy itself failed: unreachable, its name unknown, or it refused to serve.
        case proxyFailed
        /// The whole-request timeout, or a stream read's timeout, passed.
        case timedOut
        /// The body was larger than the maximum response size.
        case tooLarge
        /// TLS failed: certificate verification or handshake. An untrusted certificate's
        /// SHA-256 is in ``NetError/certificateSHA256``.
        case tls
        /// The server's certificate is not the pinned one (its SHA-256 is in ``NetError/certificateSHA256``).
        case certificateMismatch
        /// The connection closed before the whole body arrived.
        case truncated
        /// A stream's peer closed its side of the connection in an orderly way.
        case closedByPeer
        /// The stream was closed on this side (``CurlStream/close()``).
        case closed
        /// The task was cancelled.
        case cancelled
        /// Anything else libcurl reports.
        case transport
    }

    /// What failed.
    public let kind: Kind
    /// The request's method; empty for a stream.
    public let method: String
    /// The URL with user info and secret query values removed; a stream's endpoint.
    public let url: String
    /// What happened, in a few words ("timed out after 20 s").
    public let detail: String
    /// The server certificate's SHA-256 when TLS refused it (untrusted, or not the pinned one):
    /// what `certificate_sha256` would have to say to accept it.
    public let certificateSHA256: CertificatePin?

    public init(kind: Kind, method: String, url: String, detail: String, certificateSHA256: CertificatePin? = nil) {
        self.kind = kind
        self.method = method
        self.url = URLRedaction.redact(url)
        self.detail = detail
        self.certificateSHA256 = certificateSHA256
    }

    /// An error about a stream to `endpoint`.
    public init(kind: Kind, endpoint: StreamEndpoint, detail: String, certificateSHA256: CertificatePin? = nil) {
        self.init(kind: kind, method: "", url: endpoint.description, detail: detail, certificateSHA256: certificateSHA256)
    }

    /// `METHOD URL: detail`, or `tcp://HOST:PORT: detail` for a stream.
    public var description: String { method.isEmpty ? "\(url): \(detail)" : "\(method) \(url): \(detail)" }

    /// Whether a retry might help.
    public var isRetryable: Bool { kind == .connectionFailed || kind == .proxyFailed || kind == .truncated }
}

/// Removes what must not be printed from a URL: user info, and the values of query parameters
/// whose names suggest a secret (token, key, secret, auth, password, signature).
public enum URLRedaction {
    public static func redact(_ url: String) -> String {
        var text = url
        if let schemeEnd = text.range(of: "://") {
            let authorityStart = schemeEnd.upperBound
            let authorityEnd = text[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") {
                text.removeSubrange(authorityStart...at)
            }
        }
        guard let questionMark = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[questionMark...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: questionMark)..<fragmentStart]
        let secretWords = ["token", "key", "secret", "auth", "password", "signature"]
        let redacted = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].lowercased()
            guard parts.count == 2, secretWords.contains(where: { name.contains($0) }) else { return String(pair) }
            return "\(parts[0])=<redacted>"
        }.joined(separator: "&")
        return String(text[...questionMark]) + redacted + String(text[fragmentStart...])
    }
}
