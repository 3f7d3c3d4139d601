import Testing
@testable import WalletWatchNet

/// Reads from `stream` until `count` bytes have arrived; the read timeout bounds each wait.
func read(_ stream: CurlStream, count: Int, timeout: Duration = .seconds(30)) async throws -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < count {
        bytes += try await stream.read(maxBytes: count - bytes.count, timeout: timeout)
    }
    return bytes
}

/// `text` and a line feed, as bytes.
func line(_ text: String) -> [UInt8] {
    Array(text.utf8) + [0x0A]
}

/// Connects to a line server with test-sized limits.
func connect(_ endpoint: StreamEndpoint, route: NetworkRoute = .direct, connectTimeout: Duration = .seconds(10)) async throws -> CurlStream {
    try await CurlStream.connect(to: endpoint, configuration: StreamConfiguration(connectTimeout: connectTimeout, route: route))
}

/// Sends `text` as a line and expects the echo server to send it back.
func expectEcho(_ stream: CurlStream, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await stream.write(line(text))
    let echo = try await read(stream, count: text.utf8.count + 1)
    #expect(echo == line(text), sourceLocation: sourceLocation)
}

/// A task reading from `stream`, returned once its read waits in the stream (nothing has
/// arrived for it).
func waitingRead(on stream: CurlStream, sourceLocation: SourceLocation = #_sourceLocation) async -> Task<[UInt8], any Error> {
    let reader = Task { try await stream.read() }
    let waiting = await eventually { stream.waiting.reads == 1 }
    #expect(waiting, "the read never waited", sourceLocation: sourceLocation)
    return reader
}

/// How `task` ended. If it has not within `limit`, records an issue and closes `stream`, which
/// ends any read or write still waiting: a promise broken fails the test instead of hanging it.
func outcome<T: Sendable>(of task: Task<T, any Error>, within limit: Duration = .seconds(10), closing stream: CurlStream,
                          sourceLocation: SourceLocation = #_sourceLocation) async -> Result<T, any Error> {
    let watchdog = Task {
        do { try await Task.sleep(for: limit) } catch { return false }
        stream.close()
        return true
    }
    let result = await task.result
    watchdog.cancel()
    if await watchdog.value {
        Issue.record("did not end within \(limit)", sourceLocation: sourceLocation)
    }
    return result
}

/// Starts a line server (TLS with its certificate pinned, or plain TCP), connects a stream to
/// it, runs `body`, then closes the stream and stops the server.
func withEchoStream(tls: Bool, _ body: (LineServer, CurlStream) async throws -> Void) async throws {
    let server = try await LineServer(tls: tls)
    do {
        let stream = try await connect(server.endpoint(pin: server.certificate?.pin))
        defer { stream.close() }
        try await body(server, stream)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
