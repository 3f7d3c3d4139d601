import Testing
import WalletWatchNet

/// Cancelling the calling task stops the transfer, or the backoff pause, at once. The server
/// would hang until the client's 60 s timeout and the backoff lasts 30 s: ending within 15 s,
/// even on a busy machine, can only mean the cancellation cut them short.
@Suite struct CancellationTests {
    @Test func cancellingAbortsARunningTransferPromptly() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let task = Task { try await client.send(HTTPRequest(url: server.url("/hang"))) }
            #expect(await eventually { server.log.hits("hang") == 1 })
            let cancelled = ContinuousClock.now
            task.cancel()
            let result = await task.result
            let took = ContinuousClock.now - cancelled
            #expect(took < .seconds(15), "took \(took)")
            #expect(throws: NetError.self) { try result.get() }
            if case .failure(let error as NetError) = result {
                #expect(error.kind == .cancelled)
            }
            #expect(client.statistics.failures == 0)
        }
    }

    @Test func cancellingStopsTheBackoffPause() async throws {
        try await withTestServer { server in
            let client = makeClient {
                $0.initialBackoff = .seconds(30)
                $0.maxBackoff = .seconds(30)
            }
            let task = Task { try await client.send(HTTPRequest(url: server.url("/seq?id=k&codes=503"))) }
            #expect(await eventually { client.statistics.retries == 1 })
            let cancelled = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(ContinuousClock.now - cancelled < .seconds(15))
            if case .failure(let error as NetError) = result {
                #expect(error.kind == .cancelled)
            } else {
                Issue.record("expected a cancelled NetError, got \(result)")
            }
            #expect(server.log.hits("k") == 1)
        }
    }

    @Test func anAlreadyCancelledTaskSendsNothing() async throws {
        try await withTestServer { server in
            let client = makeClient()
            let task = Task {
                try? await Task.sleep(for: .seconds(30))
                return try await client.send(HTTPRequest(url: server.url("/echo")))
            }
            task.cancel()
            let result = await task.result
            if case .failure(let error as NetError) = result {
                #expect(error.kind == .cancelled)
            } else {
                Issue.record("expected a cancelled NetError, got \(result)")
            }
            #expect(server.log.hits("echo") == 0)
            #expect(client.statistics.attempts == 0)
        }
    }
}
