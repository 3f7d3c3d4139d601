import Hummingbird
import Logging
import ServiceLifecycle

/// The server of `withLoopbackServer` did not report a port.
public struct LoopbackServerDidNotStart: Error {}

/// Runs `router` on 127.0.0.1 at a port the kernel picks, calls `body` with that port once the
/// server listens, and stops the server when `body` returns or throws. The server logs only
/// what is critical, under `label`.
///
/// The server stops with a graceful shutdown (at most a second, then cancellation for a route
/// still busy), not by cancelling it at once: cancelling a Hummingbird server while a
/// connection it accepted waits to be served traps in NIO ("Deinited NIOAsyncWriter without
/// calling finish()", swift-nio #3481). The Net tests' stream and proxy tests met that trap about
/// one run in five; stopped gracefully, it did not happen in 18 runs.
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
    var configuration = ServiceGroupConfiguration(services: [app], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(1)
    let group = ServiceGroup(configuration: configuration)
    let server = Task { try await group.run() }
    let result: Result<T, any Error>
    var iterator = ports.makeAsyncIterator()
    if let port = await iterator.next(), port > 0 {
        do {
            result = .success(try await body(port))
        } catch {
            result = .failure(error)
        }
    } else {
        result = .failure(LoopbackServerDidNotStart())
    }
    await group.triggerGracefulShutdown()
    _ = await server.result
    return try result.get()
}
