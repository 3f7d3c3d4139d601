#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl

/// When a request is tried again, and how long to wait first.
struct RetryPolicy: Sendable {
    /// Statuses that say "not now" rather than "no": overload, maintenance, a gateway hiccup.
    static let retryableStatuses: Set<Int> = [429, 500, 502, 503, 504]
    /// Statuses whose `Retry-After` header is honoured.
    static let retryAfterStatuses: Set<Int> = [429, 503]

    /// Retries after the first attempt.
    var retries: Int
    var initialBackoff: Duration
    var maxBackoff: Duration

    init(_ configuration: HTTPClientConfiguration) {
        retries = max(0, configuration.retries)
        initialBackoff = configuration.initialBackoff
        maxBackoff = configuration.maxBackoff
    }

    /// The pause before retry number `retry` (1 for the first): initialBackoff doubled for each
    /// earlier retry, capped at maxBackoff, then scaled by `jitter` (a random point in the upper
    /// half) so that clients that failed together do not come back together.
    func backoff(beforeRetry retry: Int, jitter: Double = .random(in: 0.5...1)) -> Duration {
        var delay = initialBackoff
        // Doubling step by step cannot overflow, unlike 2^retry for a large retry count.
        for _ in 1..<max(1, retry) where delay < maxBackoff {
            delay *= 2
        }
        return min(delay, maxBackoff) * jitter
    }

    /// The pause before retrying after `head`: what its `Retry-After` asks for (429 and 503),
    /// capped at maxBackoff, otherwise the exponential backoff.
    func delay(after head: HTTPResponseHead, beforeRetry retry: Int, now: Int = Int(time(nil))) -> Duration {
        if Self.retryAfterStatuses.contains(head.status),
           let value = head.header("Retry-After"),
           let asked = Self.retryAfter(value, now: now) {
            return min(asked, maxBackoff)
        }
        return backoff(beforeRetry: retry)
    }

    /// A `Retry-After` value: delta-seconds ("120") or an HTTP-date, `now` being the current
    /// Unix time. A date in the past means "now"; nil when the value is neither.
    static func retryAfter(_ value: String, now: Int) -> Duration? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit) {
            // Digits too many for an Int are a very long time, which the cap shortens anyway.
            return .seconds(Int(text) ?? Int.max / 1_000_000_000_000)
        }
        // libcurl's date parser reads all three HTTP-date formats.
        let date = curl_getdate(text, nil)
        guard date != -1 else { return nil }
        return .seconds(max(0, Int(date) - now))
    }
}

extension Character {
    /// 0 through 9 only (`isNumber` also accepts other scripts' digits and fractions).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
