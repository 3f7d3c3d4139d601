import Testing
@testable import WalletWatchNet

/// The backoff schedule and Retry-After parsing, without a network.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(HTTPClientConfiguration(retries: 10, initialBackoff: .milliseconds(100), maxBackoff: .seconds(1), userAgent: "t"))

    @Test func backoffDoublesUpToTheMaximum() {
        let delays = (1...6).map { policy.backoff(beforeRetry: $0, jitter: 1) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
        #expect(policy.backoff(beforeRetry: 500, jitter: 1) == .seconds(1))
        #expect(policy.backoff(beforeRetry: 1, jitter: 0.5) == .milliseconds(50))
    }

    @Test func jitterStaysInTheUpperHalf() {
        for retry in 1...5 {
            let full = policy.backoff(beforeRetry: retry, jitter: 1)
            for _ in 0..<50 {
                let delay = policy.backoff(beforeRetry: retry)
                #expect(delay >= full / 2 && delay <= full)
            }
        }
    }

    @Test func readsRetryAfterSecondsAndDates() {
        let now = 1_445_412_450 // 30 s before Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.retryAfter("120", now: now) == .seconds(120))
        #expect(RetryPolicy.retryAfter(" 0 ", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Wednesday, 21-Oct-15 07:28:00 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("99999999999999999999999", now: now)! > .seconds(1_000_000))
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter("", now: now) == nil)
    }

    @Test func honoursRetryAfterOnlyOn429And503() {
        let headers = [HTTPHeader("Retry-After", "0")]
        #expect(policy.delay(after: HTTPResponseHead(status: 429, headers: headers), beforeRetry: 1) == .zero)
        #expect(policy.delay(after: HTTPResponseHead(status: 503, headers: headers), beforeRetry: 1) == .zero)
        #expect(policy.delay(after: HTTPResponseHead(status: 500, headers: headers), beforeRetry: 1) >= .milliseconds(50))
        #expect(policy.delay(after: HTTPResponseHead(status: 503, headers: [HTTPHeader("retry-after", "3600")]), beforeRetry: 1) == .seconds(1))
    }

    @Test func describesDurationsShortly() {
        #expect(Duration.seconds(20).shortDescription == "20 s")
        #expect(Duration.milliseconds(300).shortDescription == "300 ms")
        #expect(Duration.milliseconds(1500).shortDescription == "1.5 s")
    }
}
