/// Makes HTTP requests for walletwatch. The production implementation is ``CurlHTTPClient``
/// (libcurl); every implementation runs blocking I/O off Swift's cooperative threads.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the final response with its whole body (at most the
    /// configured maximum size). Connection errors, 429, 500, 502, 503 and 504 are retried with
    /// exponential backoff and jitter, honouring `Retry-After`; the last response is returned
    /// whatever its status. Throws ``NetError`` for transport failures.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Sends `request` and hands the body of a 2xx response to `consumer` chunk by chunk as it
    /// arrives. Retries happen only before the first byte reaches the consumer. The body of a
    /// non-2xx response is not given to the consumer; its first bytes are in the returned head.
    func stream(_ request: HTTPRequest, into consumer: any HTTPBodyConsumer) async throws -> HTTPResponseHead

    /// What the client did since it was made (for /metrics).
    var statistics: HTTPClientStatistics { get }
}

/// Receives a streamed response body in order, on the transfer's own thread. It may block to
/// slow the transfer down (backpressure); throwing aborts the transfer with that error.
public protocol HTTPBodyConsumer: AnyObject, Sendable {
    func consume(_ chunk: UnsafeRawBufferPointer) throws
}

/// An HTTP method.
public enum HTTPMethod: String, Sendable {
    case get = "GET", post = "POST", put = "PUT", delete = "DELETE"
}

/// One header line.
public struct HTTPHeader: Sendable, Hashable {
    public let name: String
    public let value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A bearer token. Its description is redacted so that it cannot end up in logs or errors by
/// accident; only the transport reads ``value``.
public struct BearerToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String
    public init(_ value: String) { self.value = value }
    public var description: String { BearerToken.mark }
    public var debugDescription: String { BearerToken.mark }

    /// What stands in a text for a token cut out of it.
    public static let mark = "<redacted>"

    /// `text` with every occurrence of the token replaced by ``mark``. Marks already in the text
    /// are left as they are, so a message redacted twice (by the transport, then by the source
    /// that quotes it beside a server's answer) reads as if redacted once, even for a token of
    /// one letter found in "redacted". A token cannot reach across a mark: a bearer token's
    /// characters (RFC 6750's b64token) include no `<` or `>`.
    public func redact(_ text: String) -> String {
        guard !value.isEmpty else { return text }
        return text.split(separator: Self.mark, omittingEmptySubsequences: false)
            .map { $0.replacing(value, with: Self.mark) }
            .joined(separator: Self.mark)
    }
}

/// A request to send.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// An absolute http:// or https:// URL; other schemes are refused.
    public var url: String
    public var headers: [HTTPHeader]
    /// Sent as `Authorization: Bearer ...`; a redirect is only followed to the same origin, so
    /// the token never reaches another scheme, host or port.
    public var bearerToken: BearerToken?
    public var body: [UInt8]?
    /// Overrides the client's whole-request timeout (long polls need longer).
    public var timeout: Duration?
    /// Overrides the client's maximum response size.
    public var maxResponseBytes: Int?
    /// Overrides the client's retries after the first attempt (a webhook delivery makes one
    /// attempt: its outbox retries on its own schedule).
    public var retries: Int?
    /// Overrides the client's route (a source or a webhook target with a proxy of its own).
    public var route: NetworkRoute?
    /// Overrides the client's maximum number of redirects; 0 returns a 3xx as the response
    /// (a webhook follows none).
    public var maxRedirects: Int?
    /// How logs and errors show the request's URL, when not as it is (secrets always left
    /// out): an explorer's path names a wallet's address or script, and a JSON-RPC provider's
    /// path may hold its key (as Infura and Alchemy put it), which neither may show.
    public var loggedURL: String?

    /// The URL as a log line shows it.
    public var shownInLogs: String { loggedURL ?? URLRedaction.redact(url) }

    public init(method: HTTPMethod = .get, url: String, headers: [HTTPHeader] = [], bearerToken: BearerToken? = nil,
                body: [UInt8]? = nil, timeout: Duration? = nil, maxResponseBytes: Int? = nil, retries: Int? = nil,
                route: NetworkRoute? = nil, maxRedirects: Int? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.bearerToken = bearerToken
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.retries = retries
        self.route = route
        self.maxRedirects = maxRedirects
    }
}

/// The status line and headers of a response.
public struct HTTPResponseHead: Sendable {
    public let status: Int
    public let headers: [HTTPHeader]
    /// For a non-2xx streamed response: its first bytes (at most 4 KiB), for error messages.
    public let errorBody: [UInt8]

    public init(status: Int, headers: [HTTPHeader], errorBody: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.errorBody = errorBody
    }

    /// The first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// True for 200 through 299.
    public var isSuccess: Bool { (200...299).contains(status) }
}

/// A whole response.
public struct HTTPResponse: Sendable {
    public let head: HTTPResponseHead
    public let body: [UInt8]

    public init(head: HTTPResponseHead, body: [UInt8]) {
        self.head = head
        self.body = body
    }

    public var status: Int { head.status }
    public func header(_ name: String) -> String? { head.header(name) }
    public var isSuccess: Bool { head.isSuccess }
}

/// Limits and identity shared by every request of a client.
public struct HTTPClientConfiguration: Sendable {
    /// Time allowed to establish a connection (TCP and TLS).
    public var connectTimeout: Duration
    /// Time allowed for a whole request, unless the request says otherwise.
    public var timeout: Duration
    /// Bodies larger than this are refused while they arrive (and before, when the length is announced).
    public var maxResponseBytes: Int
    /// Retries after the first attempt.
    public var retries: Int
    /// The first backoff delay; each retry doubles it, with jitter.
    public var initialBackoff: Duration
    /// No backoff (or honoured Retry-After) is longer than this.
    public var maxBackoff: Duration
    /// `walletwatch/<version>`.
    public var userAgent: String
    /// Redirects of a GET followed at most, each only to the request's own scheme, host and
    /// port (SPEC.md section 24); 0 returns a 3xx as the response. Other methods follow none.
    public var maxRedirects: Int
    /// How requests reach their hosts unless a request says otherwise. `.direct` by default,
    /// which also ignores the proxies of the environment.
    public var route: NetworkRoute

    public init(connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(20),
                maxResponseBytes: Int = 64 << 20, retries: Int = 3, initialBackoff: Duration = .milliseconds(500),
                maxBackoff: Duration = .seconds(30), userAgent: String, maxRedirects: Int = 5, route: NetworkRoute = .direct) {
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.retries = retries
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.userAgent = userAgent
        self.maxRedirects = maxRedirects
        self.route = route
    }
}
