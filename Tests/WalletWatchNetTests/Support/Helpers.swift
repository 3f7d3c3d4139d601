#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization
import Testing
import TestSupport
import WalletWatchNet

/// A client with test-sized backoffs (10 to 50 ms), changed by `adjust`. Its timeouts are
/// generous: a test about timeouts sets its own, and no other test should fail because a busy
/// machine (the whole suite runs at once) answered slowly.
func makeClient(logger: Logger = Logger(label: "walletwatch-net-test", factory: { _ in SwiftLogNoOpLogHandler() }),
                _ adjust: (inout HTTPClientConfiguration) -> Void = { _ in }) -> CurlHTTPClient {
    var configuration = HTTPClientConfiguration(
        connectTimeout: .seconds(10), timeout: .seconds(60), retries: 3,
        initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(50), userAgent: "walletwatch-tests/1.0")
    adjust(&configuration)
    return CurlHTTPClient(configuration: configuration, logger: logger)
}

/// The NetError `body` throws; records an issue (and returns nil) if it throws something else or nothing.
func netError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async -> NetError? {
    do {
        try await body()
        Issue.record("expected a NetError, but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as NetError {
        return error
    } catch {
        Issue.record("expected a NetError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Waits until `condition` holds, checking every few milliseconds; false if `timeout` passes first.
func eventually(within timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// How long `body` took.
func elapsed(_ body: () async throws -> Void) async rethrows -> Duration {
    let start = ContinuousClock.now
    try await body()
    return ContinuousClock.now - start
}


/// Collects a streamed body and the size of each chunk.
final class CollectingConsumer: HTTPBodyConsumer {
    private let state = Mutex<(bytes: [UInt8], chunks: [Int])>(([], []))
    /// Throws after this many chunks, when set.
    let failAfterChunks: Int?

    init(failAfterChunks: Int? = nil) {
        self.failAfterChunks = failAfterChunks
    }

    struct Refusal: Error, Equatable {}

    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        let count = state.withLock { state in
            state.bytes.append(contentsOf: chunk)
            state.chunks.append(chunk.count)
            return state.chunks.count
        }
        if let failAfterChunks, count >= failAfterChunks { throw Refusal() }
    }

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var chunkCount: Int { state.withLock { $0.chunks.count } }
}

/// A loopback port that never completes a connection: a listener whose accept queue is full,
/// so the kernel drops new SYNs and a client waits until its connect timeout.
final class FullBacklogListener {
    let port: Int
    private var sockets: [Int32] = []

    init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = bindToLoopback(listener)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        precondition(listen(listener, 0) == 0)
        sockets.append(listener)
        // Fill the queue (never accepted) with non-blocking connects.
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            sockets.append(filler)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        sockets.forEach { close($0) }
    }
}

/// A loopback port that refuses connections and that no other test can take meanwhile: a
/// socket bound to it but not listening (the kernel answers a connect with a reset). Safer
/// than a port found free and let go, which a server started by a test running alongside may
/// be given next.
final class RefusingPort: Sendable {
    let port: Int
    private let socketFD: Int32

    init() {
        socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        port = Int(UInt16(bigEndian: bindToLoopback(socketFD).sin_port))
    }

    deinit {
        close(socketFD)
    }
}

/// The far end of a stream, played by the test with plain sockets: it accepts one connection
/// and reads only when told to, so that a stream's writes can be made to wait. Its reads block
/// (at most 10 s each), which is acceptable for the few loopback reads of a test.
final class RawPeer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    // Set once by accept(), before any read; the test calls these one after the other.
    private var connection: Int32 = -1

    init() {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        port = Int(UInt16(bigEndian: bindToLoopback(listener).sin_port))
        precondition(listen(listener, 1) == 0)
    }

    deinit {
        close(listener)
        if connection >= 0 { close(connection) }
    }

    /// Takes the connection the stream made (it waits in the listener's queue already).
    func accept() {
        connection = Glibc.accept(listener, nil, nil)
        precondition(connection >= 0, "accept failed: errno \(errno)")
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Whether bytes have arrived that were not read yet.
    var hasBytesWaiting: Bool {
        var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    /// Reads until `count` bytes have come (fewer if the connection ends or a read times out).
    func receive(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < count {
            let read = recv(connection, &buffer, min(buffer.count, count - bytes.count), 0)
            guard read > 0 else { break }
            bytes += buffer[..<read]
        }
        return bytes
    }

    /// Reads until the other side closes (or a read times out).
    func receiveUntilEnd() -> [UInt8] {
        receive(count: .max)
    }
}

extension SOCKSProxy {
    /// A route through this proxy (`exceptions` as libcurl's NOPROXY).
    func route(exceptions: String = "") -> NetworkRoute { .proxy(url: url, exceptions: exceptions) }
}
