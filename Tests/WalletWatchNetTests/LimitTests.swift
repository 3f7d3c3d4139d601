import Testing
import WalletWatchNet

/// Timeouts and the maximum response size.
@Suite struct LimitTests {
    static let oneMiB = 1 << 20
    static let hundredMB = 100_000_000

    @Test func cutsOffASlowResponseAfterOneTimeout() async throws {
        try await withTestServer { server in
            // The request's timeout overrides the client's 60 s; timeouts are not retried.
            let client = makeClient { $0.retries = 3 }
            var error: NetError?
            let took = await elapsed {
                error = await netError { _ = try await client.send(HTTPRequest(url: server.url("/slow?ms=30000"), timeout: .milliseconds(500))) }
            }
            #expect(error?.kind == .timedOut)
            #expect(error?.detail == "timed out after 500 ms")
            // One timeout, not four: a single attempt, cut off long before the server's 30 s.
            #expect(took >= .milliseconds(500), "took \(took)")
            #expect(took < .seconds(15), "took \(took)")
            #expect(client.statistics.attempts == 1)
            #expect(server.log.hits("slow") <= 1)
        }
    }

    @Test func usesTheClientTimeoutByDefault() async throws {
        try await withTestServer { server in
            let client = makeClient { $0.timeout = .milliseconds(400) }
            var error: NetError?
            let took = await elapsed {
                error = await netError { _ = try await client.send(HTTPRequest(url: server.url("/slow?ms=30000"))) }
            }
            #expect(error?.kind == .timedOut)
            #expect(error?.detail == "timed out after 400 ms")
            // The server would answer after 30 s; well before that means the timeout cut it off.
            #expect(took >= .milliseconds(400) && took < .seconds(15), "took \(took)")
        }
    }

    @Test(arguments: [true, false])
    func refusesAnOversizedBodyWithoutReadingItAll(announced: Bool) async throws {
        try await withTestServer { server in
            let client = makeClient()
            let url = server.url("/big?id=k&bytes=\(Self.hundredMB)&announce=\(announced ? 1 : 0)")
            let error = await netError { _ = try await client.send(HTTPRequest(url: url, maxResponseBytes: Self.oneMiB)) }
            #expect(error?.kind == .tooLarge)
            #expect(error?.detail == "response larger than 1048576 bytes")
            #expect(client.statistics.retries == 0)
            // The server's writes fail once the client has hung up; it got nowhere near 100 MB.
            #expect(await eventually { server.log.isFinished("k") })
            #expect(server.log.bytesSent("k") < 16 * Self.oneMiB, "server sent \(server.log.bytesSent("k")) bytes")
        }
    }

    @Test(arguments: [true, false])
    func acceptsABodyOfExactlyTheMaximumSize(announced: Bool) async throws {
        try await withTestServer { server in
            let url = server.url("/big?bytes=\(Self.oneMiB)&announce=\(announced ? 1 : 0)")
            let response = try await makeClient { $0.maxResponseBytes = Self.oneMiB }.send(HTTPRequest(url: url))
            #expect(response.status == 200)
            #expect(response.body.count == Self.oneMiB)
        }
    }
}
