import Testing
import WalletWatchNet

/// Requests against a real local server: what is sent, what comes back, redirects, keep-alive.
@Suite struct CurlHTTPClientTests {
    @Test func sendsUserAgentAndBearerToken() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let response = try await client.send(HTTPRequest(url: server.url("/echo"), headers: [HTTPHeader("X-Walletwatch", "yes")],
                                                             bearerToken: BearerToken("tok-123")))
            let echo = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 200)
            #expect(echo.contains("user-agent: walletwatch-tests/1.0"))
            #expect(echo.contains("authorization: Bearer tok-123"))
            #expect(echo.contains("x-walletwatch: yes"))
            #expect(response.header("Content-Length") == "\(response.body.count)")
            #expect(client.statistics == HTTPClientStatistics(requests: 1, attempts: 1, retries: 0, failures: 0, connectionsOpened: 1))
        }
    }

    @Test(arguments: [HTTPMethod.post, .put, .delete])
    func sendsMethodAndBody(method: HTTPMethod) async throws {
        try await withTestServer { server in
            let body: [UInt8]? = method == .delete ? nil : Array("amount=21&unit=sat\u{0}binary".utf8)
            let response = try await makeClient().send(
                HTTPRequest(method: method, url: server.url("/echo"), headers: [HTTPHeader("Content-Type", "application/octet-stream")], body: body))
            let echo = String(decoding: response.body, as: UTF8.self)
            #expect(echo.contains("method: \(method.rawValue)"))
            if let body {
                #expect(echo.contains("body: \(String(decoding: body, as: UTF8.self))"))
                #expect(echo.contains("content-length: \(body.count)"))
                #expect(!echo.contains("expect:"))
            } else {
                #expect(echo.hasSuffix("body: "))
            }
        }
    }

    @Test func followsRedirectOnTheSameHostWithTheToken() async throws {
        try await withTestServer { server in
            let response = try await makeClient().send(HTTPRequest(url: server.url("/redirect-echo"), bearerToken: BearerToken("tok-123")))
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self).contains("authorization: Bearer tok-123"))
        }
    }

    @Test func stopsAfterTheMaximumNumberOfRedirects() async throws {
        try await withTestServer { server in
            let client = makeClient { $0.maxRedirects = 3 }
            let error = await netError { _ = try await client.send(HTTPRequest(url: server.url("/loop"))) }
            #expect(error?.kind == .transport)
            #expect(error?.detail == "more than 3 redirects")
            #expect(server.log.hits("loop") == 4)
        }
    }

    @Test func returnsTheRedirectItselfWhenFollowingIsOff() async throws {
        try await withTestServer { server in
            let response = try await makeClient { $0.maxRedirects = 0 }.send(HTTPRequest(url: server.url("/redirect-echo")))
            #expect(response.status == 302)
            #expect(response.header("location") == "/echo")
            #expect(server.log.hits("echo") == 0)
        }
    }

    @Test func reusesTheConnectionForSequentialRequests() async throws {
        try await withTestServer { server in
            let client = makeClient()
            for _ in 0..<10 {
                let response = try await client.send(HTTPRequest(url: server.url("/echo")))
                #expect(response.status == 200)
            }
            #expect(client.statistics.attempts == 10)
            #expect(client.statistics.connectionsOpened == 1)
        }
    }

    /// Eight two-second requests at once take far less than the 16 s they would one after the
    /// other: each has its own transfer thread, and none holds one of the (two, here)
    /// cooperative threads while it waits.
    @Test func runsConcurrentRequestsInParallel() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let took = try await elapsed {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<8 {
                        group.addTask { try await client.send(HTTPRequest(url: server.url("/slow?ms=2000"))).status }
                    }
                    for try await status in group {
                        #expect(status == 200)
                    }
                }
            }
            #expect(took < .seconds(8), "took \(took)")
            #expect(server.log.hits("slow") == 8)
        }
    }
}
