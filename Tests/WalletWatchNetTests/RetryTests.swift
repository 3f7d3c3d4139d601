import Logging
import Testing
import TestSupport
import WalletWatchNet

/// Retries with backoff, Retry-After, and what is returned or thrown when they run out.
@Suite struct RetryTests {
    @Test func retries429AfterTheDelayInRetryAfter() async throws {
        try await withTestServer { server in
            let recorder = LogRecorder()
            let client = makeClient(logger: recorder.logger()) { $0.maxBackoff = .seconds(5) }
            var response: HTTPResponse?
            let took = try await elapsed {
                response = try await client.send(HTTPRequest(url: server.url("/seq?id=k&codes=429,200&retryAfter=1&api_token=s3cr3t")))
            }
            #expect(response?.status == 200)
            #expect(String(decoding: response?.body ?? [], as: UTF8.self) == "attempt 2")
            #expect(took >= .milliseconds(950), "took \(took)")
            #expect(took < .seconds(10), "took \(took)")
            #expect(client.statistics.retries == 1)

            let notices = recorder.entries.filter { $0.level == .notice }
            #expect(notices.count == 1)
            let notice = try #require(notices.first).message
            #expect(notice.contains("GET \(server.url("/seq?id=k&codes=429,200&retryAfter=1&api_token=<redacted>"))"))
            #expect(notice.contains("attempt 1 of 4 failed (HTTP 429)"))
            #expect(!recorder.entries.contains { $0.text.contains("s3cr3t") })
        }
    }

    @Test func capsRetryAfterAtTheMaximumBackoff() async throws {
        try await withTestServer { server in
            // Honouring Retry-After: 120 would take two minutes; the cap makes it a moment.
            let client = makeClient { $0.maxBackoff = .milliseconds(50) }
            var status = 0
            let took = try await elapsed {
                status = try await client.send(HTTPRequest(url: server.url("/seq?codes=503,200&retryAfter=120"))).status
            }
            #expect(status == 200)
            #expect(took < .seconds(30), "took \(took)")
        }
    }

    @Test func retriesThree503sThenSucceeds() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let response = try await client.send(HTTPRequest(url: server.url("/seq?id=k&codes=503,503,503,200")))
            #expect(response.status == 200)
            #expect(server.log.hits("k") == 4)
            #expect(client.statistics == HTTPClientStatistics(requests: 1, attempts: 4, retries: 3, failures: 0, connectionsOpened: 1))
        }
    }

    @Test func returnsTheLastResponseWhenRetriesRunOut() async throws {
        try await withTestServer { server in
            let client = makeClient { $0.retries = 2 }
            let response = try await client.send(HTTPRequest(url: server.url("/seq?id=k&codes=500")))
            #expect(response.status == 500)
            #expect(String(decoding: response.body, as: UTF8.self) == "attempt 3")
            #expect(server.log.hits("k") == 3)
            #expect(client.statistics.failures == 0)
        }
    }

    @Test(arguments: [400, 401, 404, 501])
    func doesNotRetryOtherStatuses(code: Int) async throws {
        try await withTestServer { server in
            let response = try await makeClient().send(HTTPRequest(url: server.url("/seq?id=k&codes=\(code),200")))
            #expect(response.status == code)
            #expect(server.log.hits("k") == 1)
        }
    }

    @Test func retriesARefusedConnectionThenThrows() async throws {
        let client = makeClient { $0.retries = 2 }
        let error = await netError { _ = try await client.send(HTTPRequest(url: "http://127.0.0.1:\(unusedLoopbackPort())/")) }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.detail == "connection refused")
        #expect(client.statistics == HTTPClientStatistics(requests: 1, attempts: 3, retries: 2, failures: 1, connectionsOpened: 0))
    }

    @Test func retriesWhenTheConnectTimeoutPasses() async throws {
        let listener = FullBacklogListener()
        let client = makeClient {
            $0.connectTimeout = .milliseconds(200)
            $0.retries = 1
        }
        let error = await netError { _ = try await client.send(HTTPRequest(url: "http://127.0.0.1:\(listener.port)/")) }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.detail == "could not connect within 200 ms")
        #expect(client.statistics.attempts == 2)
        withExtendedLifetime(listener) {}
    }

    @Test func retriesATruncatedBodyThenThrows() async throws {
        try await withTestServer { server in
            let client = makeClient { $0.retries = 2 }
            let error = await netError { _ = try await client.send(HTTPRequest(url: server.url("/truncated?id=k"))) }
            #expect(error?.kind == .truncated)
            #expect(error?.detail == "connection closed before the whole body arrived")
            #expect(server.log.hits("k") == 3)
        }
    }
}
