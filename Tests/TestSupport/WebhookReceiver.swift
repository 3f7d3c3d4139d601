#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Logging
import Synchronization

/// A real HTTP receiver for webhooks on 127.0.0.1: records every POST it gets (headers and the
/// exact body bytes) and answers it as the test says: a status, after an optional delay.
/// Stopping it closes the port, so that a sender finds nobody listening; it can be started
/// again on the same port.
public final class WebhookReceiver: Sendable {
    /// One request as it arrived, and what the receiver answered.
    public struct Received: Sendable {
        /// Header names in lowercase.
        public let headers: [String: String]
        public let body: [UInt8]
        public let status: Int
        public var text: String { String(decoding: body, as: UTF8.self) }
        /// The value of the header `name` (case-insensitive).
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    private struct State {
        var received: [Received] = []
        var arrived = 0
        var status = 200
        var delay: Duration = .zero
        var server: Task<Void, any Error>?
    }

    private let state = Mutex(State())
    /// The port it listens on (kept across restarts).
    public let port: Int

    /// `http://127.0.0.1:<port>/hook`.
    public var url: String { "http://127.0.0.1:\(port)/hook" }

    /// A receiver for a free port, not listening yet (a target that is down).
    public init() {
        port = unusedLoopbackPort()
    }

    /// Starts listening (again); returns once connections are accepted.
    public func start() async throws {
        let router = Router()
        router.post("/hook") { [self] request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            let (status, delay) = state.withLock { state in
                state.arrived += 1
                return (state.status, state.delay)
            }
            if delay > .zero { try await Task.sleep(for: delay) }
            state.withLock { $0.received.append(Received(headers: headers, body: Array(buffer: body), status: status)) }
            return Response(status: .init(code: status), body: .init(byteBuffer: ByteBuffer(string: "{\"ok\":true}")))
        }
        var logger = Logger(label: "walletwatch-webhook-receiver")
        logger.logLevel = .critical
        let (running, continuation) = AsyncStream.makeStream(of: Bool.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                              onServerRunning: { _ in continuation.yield(true); continuation.finish() }, logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await app.run()
        }
        state.withLock { $0.server = task }
        var iterator = running.makeAsyncIterator()
        guard await iterator.next() == true else { throw ReceiverError.didNotStart(port) }
    }

    /// Stops listening: the port refuses connections until ``start()``.
    public func stop() async {
        guard let task = state.withLock({ state -> Task<Void, any Error>? in defer { state.server = nil }; return state.server }) else { return }
        task.cancel()
        _ = await task.result
    }

    /// Answers the following requests with `status` after `delay`.
    public func answer(_ status: Int, after delay: Duration = .zero) {
        state.withLock {
            $0.status = status
            $0.delay = delay
        }
    }

    /// Every request so far, in the order they were answered.
    public var received: [Received] { state.withLock { $0.received } }
    /// How many requests arrived, answered yet or not (a slow answer is still being waited).
    public var arrived: Int { state.withLock { $0.arrived } }
    /// The requests it answered with a 2xx.
    public var acknowledged: [Received] { received.filter { (200...299).contains($0.status) } }

    enum ReceiverError: Error { case didNotStart(Int) }

    deinit {
        state.withLock { $0.server?.cancel() }
    }
}
