/// A fault injected on the paths that match `path`: an exact request path such as
/// `/barkd/ark/api/v1/history`, or a prefix ending in `*` such as `/esplora/*`. With `times`
/// set, the fault clears itself after serving that many requests.
///
/// JSON form (snake_case, flat): `{"path": "/esplora/*", "kind": "status", "status": 503,
/// "retry_after": 2, "times": 1}`. Kinds and their parameters:
/// `malformed_json`, `wrong_type`, `negative_amount`, `missing_field`, `truncated`,
/// `status` (`status`, optional `retry_after`), `unauthorized` (401), `rate_limited` (429,
/// `retry_after`, default 1), `slow` (`seconds`), `oversized` (`bytes`, `announce_length`),
/// `redirect` (`location`, default `file:///etc/passwd`), `deep_nesting` (`depth`, default
/// 100000), `huge_string` (`bytes`, default 100 MB; `in_array` wraps the object in an array),
/// `recorded` (`body`: this exact text answered with 200 and `application/json`).
public struct Fault: Sendable, Hashable, Codable, ScopedFault {
    /// An exact path, or a prefix ending in `*`.
    public var path: String
    /// What the fault does.
    public var kind: FaultKind
    /// Serve the fault this many times, then drop it; nil = until cleared.
    public var times: Int?

    /// A fault of `kind` on `path`, optionally for `times` requests only.
    public init(_ kind: FaultKind, at path: String, times: Int? = nil) {
        self.kind = kind
        self.path = path
        self.times = times
    }

    /// Whether the fault applies to a request for `requestPath`.
    public func matches(_ requestPath: String) -> Bool { Self.scope(path, matches: requestPath) }

    private enum CodingKeys: String, CodingKey {
        case path, kind, times, status, seconds, bytes, location, depth, body
        case retryAfter = "retry_after", announceLength = "announce_length", inArray = "in_array"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path)
        times = try c.decodeIfPresent(Int.self, forKey: .times)
        let name = try c.decode(String.self, forKey: .kind)
        switch name {
        case "malformed_json": kind = .malformedJSON
        case "wrong_type": kind = .wrongType
        case "negative_amount": kind = .negativeAmount
        case "missing_field": kind = .missingField
        case "truncated": kind = .truncated
        case "unauthorized": kind = .status(401)
        case "rate_limited":
            kind = .status(429, retryAfter: try c.decodeIfPresent(Int.self, forKey: .retryAfter) ?? 1)
        case "status":
            kind = .status(try c.decode(Int.self, forKey: .status),
                           retryAfter: try c.decodeIfPresent(Int.self, forKey: .retryAfter))
        case "slow": kind = .slow(seconds: try c.decodeIfPresent(Double.self, forKey: .seconds) ?? 5)
        case "oversized":
            kind = .oversized(bytes: try c.decodeIfPresent(Int.self, forKey: .bytes) ?? 200_000_000,
                              announceLength: try c.decodeIfPresent(Bool.self, forKey: .announceLength) ?? false)
        case "redirect":
            kind = .redirect(location: try c.decodeIfPresent(String.self, forKey: .location) ?? "file:///etc/passwd")
        case "deep_nesting": kind = .deepNesting(depth: try c.decodeIfPresent(Int.self, forKey: .depth) ?? 100_000)
        case "huge_string":
            kind = .hugeString(bytes: try c.decodeIfPresent(Int.self, forKey: .bytes) ?? 100_000_000,
                               inArray: try c.decodeIfPresent(Bool.self, forKey: .inArray) ?? false)
        case "recorded": kind = .recorded(body: try c.decode(String.self, forKey: .body))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown fault kind \(name)")
        }
        if case .status(let code, _) = kind, !(100...599).contains(code) {
            throw DecodingError.dataCorruptedError(forKey: .status, in: c, debugDescription: "status \(code) is not an HTTP status")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(kind.name, forKey: .kind)
        try c.encodeIfPresent(times, forKey: .times)
        switch kind {
        case .status(let code, let retryAfter):
            try c.encode(code, forKey: .status)
            try c.encodeIfPresent(retryAfter, forKey: .retryAfter)
        case .slow(let seconds): try c.encode(seconds, forKey: .seconds)
        case .oversized(let bytes, let announceLength):
            try c.encode(bytes, forKey: .bytes)
            try c.encode(announceLength, forKey: .announceLength)
        case .redirect(let location): try c.encode(location, forKey: .location)
        case .deepNesting(let depth): try c.encode(depth, forKey: .depth)
        case .hugeString(let bytes, let inArray):
            try c.encode(bytes, forKey: .bytes)
            try c.encode(inArray, forKey: .inArray)
        case .recorded(let body): try c.encode(body, forKey: .body)
        case .malformedJSON, .wrongType, .negativeAmount, .missingField, .truncated: break
        }
    }
}

/// What a fault does to a response.
public enum FaultKind: Sendable, Hashable {
    /// The body starts as the real one would, then its syntax breaks.
    case malformedJSON
    /// The first integer found depth-first is sent as a string (`"870000"`).
    case wrongType
    /// The first amount that must not be negative (a `*_sat` field, an Esplora `value`,
    /// `fee` or `*_txo_sum`, a price) is made negative.
    case negativeAmount
    /// The first key of the first object is dropped.
    case missingField
    /// Content-Length announces the whole body; half of it is sent, then the connection closes.
    case truncated
    /// This status with a JSON error body; 429 and 503 carry `Retry-After` when given.
    case status(Int, retryAfter: Int? = nil)
    /// Waits this long before sending the response head, then answers normally.
    case slow(seconds: Double)
    /// `bytes` of valid-looking JSON (an array of records), streamed; with `announceLength`
    /// the length is announced in Content-Length, otherwise the body is chunked.
    case oversized(bytes: Int, announceLength: Bool = false)
    /// 302 to `location` (by default a file: URL, which a client must refuse to follow).
    case redirect(location: String = "file:///etc/passwd")
    /// `depth` nested arrays: `[[[...]]]`.
    case deepNesting(depth: Int = 100_000)
    /// One JSON string value of `bytes` bytes, streamed: `{"data":"aaaa..."}`, or with
    /// `inArray` `[{"data":"aaaa..."}]` (the first element of a list endpoint's answer).
    case hugeString(bytes: Int = 100_000_000, inArray: Bool = false)
    /// This exact body with 200 and `application/json`: an answer recorded from the real
    /// service (a documentation example, a provider's edge case) replayed byte for byte.
    case recorded(body: String)

    /// 401 with barkd's error body.
    public static let unauthorized = FaultKind.status(401)

    /// 429 with `Retry-After`.
    public static func rateLimited(retryAfter: Int = 1) -> FaultKind { .status(429, retryAfter: retryAfter) }

    /// The kind's name in JSON and in the request log.
    public var name: String {
        switch self {
        case .malformedJSON: "malformed_json"
        case .wrongType: "wrong_type"
        case .negativeAmount: "negative_amount"
        case .missingField: "missing_field"
        case .truncated: "truncated"
        case .status: "status"
        case .slow: "slow"
        case .oversized: "oversized"
        case .redirect: "redirect"
        case .deepNesting: "deep_nesting"
        case .hugeString: "huge_string"
        case .recorded: "recorded"
        }
    }

    /// Whether the fault edits the body the route writes (see ``WireEncoder``).
    var isBodyEdit: Bool {
        switch self {
        case .wrongType, .negativeAmount, .missingField: true
        default: false
        }
    }

    /// The name with its main parameter, for the request log (`status 503`, `slow 2.0s`).
    var logLabel: String {
        switch self {
        case .status(let code, _): "status \(code)"
        case .slow(let seconds): "slow \(seconds)s"
        case .oversized(let bytes, _): "oversized \(bytes)"
        default: name
        }
    }
}
