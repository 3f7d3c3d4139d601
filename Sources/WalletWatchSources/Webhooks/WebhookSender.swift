import Crypto
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet

/// POSTs notification events to webhook targets (SPEC.md section 18, CLI.md "Webhook
/// request"): the body `{"id", "event", "at", "data"}`, the `X-Walletwatch-*` headers and, with
/// a secret, an HMAC-SHA256 signature of the exact body bytes.
///
/// One attempt per call and no retries of its own: the outbox decides when to try again, so a
/// target that is down costs one short timeout, never a pile of retries.
public struct WebhookSender: Sendable {
    let http: any HTTPClient
    /// The whole request's time limit: a slow target is cut off after it.
    let timeout: Duration

    /// Bodies of a target's answers are not needed beyond an error's first words.
    static let maxAnswerBytes = 1 << 20

    public init(http: any HTTPClient, timeout: Duration) {
        self.http = http
        self.timeout = timeout
    }

    /// Sends `message` to `url`, signed with `secret` when there is one, through `route` (nil:
    /// the client's), and tells how the target answered. Never throws: every failure is an
    /// outcome to record and retry.
    public func send(_ message: WebhookMessage, to url: String, secret: WebhookSecret?, route: NetworkRoute? = nil) async -> WebhookOutcome {
        var headers = [
            HTTPHeader("Content-Type", "application/json"),
            HTTPHeader("X-Walletwatch-Event", message.event),
            HTTPHeader("X-Walletwatch-Delivery", message.id),
        ]
        if let secret {
            headers.append(HTTPHeader("X-Walletwatch-Signature", Self.signature(of: message.body, key: secret)))
        }
        // No redirect is followed (SPEC.md section 24): a 3xx is a refusal like any other
        // status, retried by the outbox, and the signed body never goes anywhere else.
        let request = HTTPRequest(method: .post, url: url, headers: headers, body: message.body, timeout: timeout,
                                  maxResponseBytes: Self.maxAnswerBytes, retries: 0, route: route, maxRedirects: 0)
        do {
            let response = try await http.send(request)
            guard response.isSuccess else {
                return .refused(status: response.status, problem: "HTTP \(response.status)\(Self.excerpt(response.body))")
            }
            return .delivered(status: response.status)
        } catch let error as NetError {
            // The detail only: the URL may carry the target's own secret (a webhook id).
            return .unreachable(problem: error.detail)
        } catch {
            return .unreachable(problem: String(describing: error))
        }
    }

    /// `sha256=` and the lowercase hex HMAC-SHA256 of `body` keyed by `key`: the value of
    /// `X-Walletwatch-Signature`.
    public static func signature(of body: [UInt8], key: WebhookSecret) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: key.bytes))
        return "sha256=" + Hex.encode(code)
    }

    /// The first words of a refusal's body, on one line, for `notify log`.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
            .map { $0.isNewline || $0.isWhitespace ? " " : $0 }
            .reduce(into: "") { $0.append($1) }
            .trimmingSpaces
        return text.isEmpty ? "" : ": " + DisplaySafety.escaped(text)
    }
}

/// One event as a webhook sends it: its id and name (the headers) and the exact body bytes.
public struct WebhookMessage: Sendable, Hashable {
    /// The event's id: `X-Walletwatch-Delivery` and the body's `"id"`.
    public let id: String
    /// The event's name: `X-Walletwatch-Event` and the body's `"event"`.
    public let event: String
    /// `{"id","event","at","data"}`, compact; the signature covers exactly these bytes.
    public let body: [UInt8]

    /// Builds the body from the event's parts; `data` is the event's data as JSON text.
    public init(id: String, event: String, at: Instant, data: String) {
        self.id = id
        self.event = event
        var text = "{\"id\":"
        JSONValue.writeString(id, to: &text)
        text += ",\"event\":"
        JSONValue.writeString(event, to: &text)
        text += ",\"at\":"
        JSONValue.writeString(at.iso8601, to: &text)
        text += ",\"data\":" + data + "}"
        body = Array(text.utf8)
    }
}

/// A webhook's signing key: the content of its `secret_file` without the trailing newline.
/// Its descriptions are redacted, so that it cannot reach a log or an error by accident.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's bytes.
    public let bytes: [UInt8]

    /// The key from a secret file's content: one trailing line break (`\n` or `\r\n`) is not
    /// part of it, as `echo secret > file` writes one.
    public init(fileContent: [UInt8]) {
        var bytes = fileContent
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        self.bytes = bytes
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// How a target answered one delivery attempt.
public enum WebhookOutcome: Sendable, Equatable {
    /// A 2xx answer: delivered.
    case delivered(status: Int)
    /// Another status: to be retried.
    case refused(status: Int, problem: String)
    /// No answer: refused connection, timeout, TLS failure.
    case unreachable(problem: String)

    /// True when the target acknowledged the event.
    public var isDelivered: Bool {
        if case .delivered = self { return true }
        return false
    }

    /// One line for `notify log` and `notify test`; nil when delivered.
    public var problem: String? {
        switch self {
        case .delivered: nil
        case .refused(_, let problem), .unreachable(let problem): problem
        }
    }
}
