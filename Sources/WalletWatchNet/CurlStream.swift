/// A byte stream over TCP or TLS, made by libcurl in connect-only mode: the same resolver,
/// proxies (SOCKS5 with remote resolution) and OpenSSL with the system's CAs as HTTP. For line
/// protocols such as Electrum's newline-delimited JSON-RPC, and long-lived: nothing times out
/// on its own, so a stream idle for hours stays open (until the peer or the network drops it).
///
/// Full duplex and safe to share between tasks: one task may wait in ``read(maxBytes:timeout:)``
/// while others ``write(_:)``. Writes go out whole, in the order they were made; concurrent
/// reads are answered in the order they were made. Each stream has a thread of its own that
/// alone uses libcurl's handle; tasks only ever wait on continuations.
///
/// Every error is a ``NetError`` naming ``endpoint`` (`tcp://HOST:PORT` or `ssl://HOST:PORT`).
/// Cancelling a task stops its read or write at once with kind ``NetError/Kind/cancelled``;
/// ``close()`` (or releasing the stream) ends everything.
///
/// ```swift
/// let stream = try await CurlStream.connect(
///     to: StreamEndpoint(host: "electrum.example", port: 50002, security: .tls(pin: nil)),
///     configuration: StreamConfiguration(route: .proxy(url: "socks5h://127.0.0.1:9050", exceptions: "")))
/// defer { stream.close() }
/// try await stream.write(Array(#"{"id":0,"method":"server.version","params":["ww","1.4"]}"#.utf8) + [0x0A])
/// var pending: [UInt8] = []
/// while !pending.contains(0x0A) {
///     pending += try await stream.read(maxBytes: 65_536, timeout: .seconds(30))
/// }
/// ```
public final class CurlStream: Sendable {
    /// Where the stream is connected.
    public let endpoint: StreamEndpoint
    /// The SHA-256 of the server's TLS certificate (the pinned one, when pinned); nil for TCP.
    public let peerCertificateSHA256: CertificatePin?
    /// Internal rather than private so that tests can watch the thread end.
    let loop: StreamEventLoop

    private init(endpoint: StreamEndpoint, peerCertificateSHA256: CertificatePin?, loop: StreamEventLoop) {
        self.endpoint = endpoint
        self.peerCertificateSHA256 = peerCertificateSHA256
        self.loop = loop
    }

    /// Closes the connection when the last reference goes.
    deinit {
        loop.close(NetError(kind: .closed, endpoint: endpoint, detail: "the stream was closed"))
    }

    /// Connects to `endpoint` within `configuration.connectTimeout`, checks its TLS certificate
    /// (against the system's CAs and the host name, or against the pin) before anything is
    /// sent, and returns the stream.
    ///
    /// Throws ``NetError``: `.connectionFailed` (refused, unknown host, unreachable, the connect
    /// timeout; also as reported by the proxy), `.proxyFailed` (the proxy is down or refuses to
    /// serve), `.tls` (untrusted, with the certificate's SHA-256 in
    /// ``NetError/certificateSHA256``; or a failed handshake), `.certificateMismatch` (not the
    /// pinned certificate; nothing was sent), `.cancelled`.
    public static func connect(to endpoint: StreamEndpoint, configuration: StreamConfiguration = StreamConfiguration()) async throws -> CurlStream {
        guard CurlRuntime.initialize() else {
            throw NetError(kind: .transport, endpoint: endpoint, detail: "libcurl could not be initialised")
        }
        let cancelled = NetError(kind: .cancelled, endpoint: endpoint, detail: "cancelled while connecting")
        if Task.isCancelled { throw cancelled }
        let loop = try StreamEventLoop(endpoint: endpoint, configuration: configuration)
        let certificate = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                loop.start(connected: continuation)
                // A cancellation that came before the continuation was handed over.
                if Task.isCancelled { loop.abandonConnect(cancelled) }
            }
        } onCancel: {
            loop.abandonConnect(cancelled)
        }
        return CurlStream(endpoint: endpoint, peerCertificateSHA256: certificate, loop: loop)
    }

    /// Sends all of `bytes`; returns once the last of them is handed to the kernel (which is
    /// not proof that the peer has them).
    ///
    /// Cancelling the task releases it at once with `.cancelled`: a write whose bytes had not
    /// begun to go out is withdrawn whole; one whose bytes were going out is still sent to the
    /// end, so that the stream stays framed for the writes after it. Throws `.closed` after
    /// ``close()``, `.connectionFailed` when the connection broke.
    public func write(_ bytes: [UInt8]) async throws {
        let id = loop.makeID()
        let cancelled = NetError(kind: .cancelled, endpoint: endpoint, detail: "write cancelled")
        if Task.isCancelled { throw cancelled }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                loop.enqueueWrite(id: id, bytes: bytes, continuation: continuation)
                if Task.isCancelled { loop.cancelWrite(id, with: cancelled) }
            }
        } onCancel: {
            loop.cancelWrite(id, with: cancelled)
        }
    }

    /// The bytes that have arrived, at most `maxBytes` (at least 1 is asked for), waiting for
    /// some if none has. Never returns an empty array: once the peer has closed its side and
    /// every byte before that was read, it throws `.closedByPeer`.
    ///
    /// - parameter timeout: how long to wait for the first byte; then `.timedOut` is thrown and
    ///   the stream stays usable. Nil waits for as long as it takes.
    ///
    /// Cancelling the task throws `.cancelled` at once; no byte is lost (a later read gets it).
    /// Throws `.closed` after ``close()``, `.connectionFailed` when the connection broke.
    public func read(maxBytes: Int = 65_536, timeout: Duration? = nil) async throws -> [UInt8] {
        let id = loop.makeID()
        let cancelled = NetError(kind: .cancelled, endpoint: endpoint, detail: "read cancelled")
        if Task.isCancelled { throw cancelled }
        let deadline = timeout.map { ContinuousClock.now + $0 }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                loop.enqueueRead(StreamMailbox.PendingRead(id: id, maxBytes: max(1, maxBytes), deadline: deadline, timeout: timeout,
                                                           continuation: continuation))
                if Task.isCancelled { loop.cancelRead(id, with: cancelled) }
            }
        } onCancel: {
            loop.cancelRead(id, with: cancelled)
        }
    }

    /// Closes the stream: every waiting read and write throws `.closed` at once, the
    /// connection is closed (TLS with close_notify) and the stream's thread ends. Later reads
    /// and writes throw `.closed`. Calling it again does nothing.
    public func close() {
        loop.close(NetError(kind: .closed, endpoint: endpoint, detail: "the stream was closed"))
    }

    /// Whether ``close()`` was called (a stream the peer closed is not closed on this side).
    public var isClosed: Bool { loop.isClosed }

    /// The reads and writes waiting now (for tests that must know one is under way).
    var waiting: (reads: Int, writes: Int) { loop.waiting }
}
