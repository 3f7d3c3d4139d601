import Hummingbird
import Logging

/// The server of `withLoopbackServer` did not report a port.
public struct LoopbackServerDidNotStart: Error {}

/// Runs `router` on 127.0.0.1 at a port the kernel picks, calls `body` with that port once the
/// server listens, and stops the server when `body` returns or throws. The server logs only
/// what is critical, under `label`.
public func withLoopbackServer<T: Sendable>(_ router: Router<BasicRequestContext>, label: String,
                                            _ body: @Sendable (Int) async throws -> T) async throws -> T {
    var logger = Logger(label: label)
    logger.logLevel = .critical
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        defer { group.cancelAll() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw LoopbackServerDidNotStart() }
        return try await body(port)
    }
}
