#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A non-blocking pipe that tasks write a byte into to wake the stream's thread from poll(2).
/// (An eventfd would do with one descriptor, but Swift's Glibc module does not export it.)
private struct WakePipe {
    let readEnd: Int32
    let writeEnd: Int32

    init?() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return nil }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        (readEnd, writeEnd) = (descriptors[0], descriptors[1])
    }

    /// Wakes the thread (a full pipe already will, so a failed write is fine).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }

    func closeBoth() {
        _ = close(readEnd)
        _ = close(writeEnd)
    }
}

/// The one thread of a ``CurlStream``: it connects, then serves the stream's reads and writes
/// until the stream is closed. libcurl's easy handle is never used from two threads at once,
/// so it belongs to this thread alone; tasks talk to it through the ``StreamMailbox`` (under a
/// mutex) and wake it through a pipe. Continuations are resumed from here, after the lock is
/// released; no Swift concurrency thread ever waits on the network.
///
/// The loop: receive while the inbox has room (read-ahead, so the socket is drained and
/// OpenSSL's buffered records are not left unseen), send the oldest write, and only when both
/// would block sleep in poll(2) on the socket (for the directions that are blocked) and the
/// wake-up pipe, at most until the earliest read timeout. A TLS write that would block while the
/// socket has room is waiting for the peer (a renegotiation): it waits for readability instead,
/// and is retried at least every 10 ms.
final class StreamEventLoop: Sendable {
    /// The most bytes one receive asks libcurl for.
    static let receiveChunk = 64 << 10
    /// The most bytes one send hands libcurl, so that receiving gets its turn during a large write.
    static let sendChunk = 256 << 10
    /// Received bytes kept for readers; beyond this the thread stops receiving until they read.
    static let readAheadLimit = 1 << 20

    let endpoint: StreamEndpoint
    private let configuration: StreamConfiguration
    private let mailbox = Mutex(StreamMailbox())
    private let abandoned = AbandonFlag()
    private let ids = Atomic<UInt64>(0)
    /// Written by tasks to wake the thread; closed when the last reference (the thread's or
    /// the stream's) goes, so it is open whenever either uses it.
    private let wakePipe: WakePipe

    init(endpoint: StreamEndpoint, configuration: StreamConfiguration) throws(NetError) {
        self.endpoint = endpoint
        self.configuration = configuration
        guard let wakePipe = WakePipe() else {
            throw NetError(kind: .transport, endpoint: endpoint, detail: "could not make a pipe (errno \(errno))")
        }
        self.wakePipe = wakePipe
    }

    deinit {
        wakePipe.closeBoth()
    }

    /// A new id for a read or a write (unique per stream).
    func makeID() -> UInt64 {
        ids.add(1, ordering: .relaxed).newValue
    }

    // MARK: - Called by tasks

    /// Starts the thread, which connects and resumes `continuation` with the server
    /// certificate's SHA-256 (nil for TCP) or a NetError.
    func start(connected continuation: CheckedContinuation<CertificatePin?, any Error>) {
        mailbox.withLock { $0.connectWaiter = continuation }
        let context = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            // The thread owns a reference to the loop until it ends.
            Unmanaged<StreamEventLoop>.fromOpaque(context!).takeRetainedValue().runThread()
            return nil
        }, context.toOpaque())
        guard created == 0 else {
            context.release()
            close(NetError(kind: .transport, endpoint: endpoint, detail: "could not start a thread for the stream (error \(created))"))
            return
        }
        pthread_detach(thread)
    }

    /// Stops waiting for the connect: its caller gets `error` now; the thread gives up within
    /// about a second (libcurl's progress callback) and closes whatever it made.
    func abandonConnect(_ error: NetError) {
        close(error)
    }

    /// Queues a read (or answers it at once); the result goes to `continuation`.
    func enqueueRead(_ read: StreamMailbox.PendingRead) {
        let (wakeThread, resumptions) = mailbox.withLock { $0.enqueueRead(read, readAheadLimit: Self.readAheadLimit) }
        if wakeThread { wake() }
        resume(resumptions)
    }

    /// Withdraws a waiting read, whose caller gets `error`.
    func cancelRead(_ id: UInt64, with error: NetError) {
        let resumption = mailbox.withLock { $0.cancelRead(id, with: error) }
        resumption?()
    }

    /// Queues a write (or fails it at once); completion goes to `continuation`.
    func enqueueWrite(id: UInt64, bytes: [UInt8], continuation: CheckedContinuation<Void, any Error>) {
        let (queued, resumptions) = mailbox.withLock { $0.enqueueWrite(id: id, bytes: bytes, continuation: continuation) }
        if queued { wake() }
        resume(resumptions)
    }

    /// Releases the caller of a write (see ``StreamMailbox/cancelWrite(_:with:)``).
    func cancelWrite(_ id: UInt64, with error: NetError) {
        let resumption = mailbox.withLock { $0.cancelWrite(id, with: error) }
        resumption?()
    }

    /// Fails everything waiting with `error` and makes the thread close the connection and end.
    /// Only the first call does anything.
    func close(_ error: NetError) {
        let resumptions = mailbox.withLock { $0.close(error) }
        abandoned.set()
        wake()
        resume(resumptions)
    }

    /// Whether ``close(_:)`` was called.
    var isClosed: Bool {
        mailbox.withLock { $0.closed != nil }
    }

    /// The reads and writes waiting now.
    var waiting: (reads: Int, writes: Int) {
        mailbox.withLock { ($0.reads.count, $0.writes.count) }
    }

    private func wake() {
        wakePipe.signal()
    }

    private func resume(_ resumptions: [StreamMailbox.Resumption]) {
        for resumption in resumptions {
            resumption()
        }
    }

    // MARK: - The thread

    private func runThread() {
        // A write to a connection the peer has reset raises SIGPIPE in the writing thread
        // (OpenSSL may write without MSG_NOSIGNAL); blocked here, it stays pending on this
        // thread and goes away with it, instead of killing the process.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let connector = StreamConnector(endpoint: endpoint, configuration: configuration, abandoned: abandoned)
        let connection: StreamConnection
        do {
            connection = try connector.connect()
        } catch {
            let waiter = mailbox.withLock { mailbox in
                defer { mailbox.connectWaiter = nil }
                return mailbox.connectWaiter
            }
            waiter?.resume(throwing: error)
            return
        }
        let waiter = mailbox.withLock { mailbox in
            defer { mailbox.connectWaiter = nil }
            return mailbox.connectWaiter
        }
        // Nil when the connect was abandoned meanwhile: nothing is sent, the connection closes.
        if let waiter {
            waiter.resume(returning: connection.certificate)
            serve(connection)
        }
        connection.close()
    }

    /// What the thread knows about the socket between passes.
    private struct SocketState {
        /// The last receive would have blocked: wait for readability before the next.
        var readBlocked = false
        /// The last send would have blocked: wait before the next.
        var writeBlocked = false
        /// That send would have blocked although the socket had room: TLS needs to read first.
        var writeNeedsReadable = false
    }

    /// Serves reads and writes until the stream is closed.
    private func serve(_ connection: StreamConnection) {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.receiveChunk, alignment: 1)
        defer { scratch.deallocate() }
        var state = SocketState()
        while true {
            let now = ContinuousClock.now
            let timedOut: (Duration) -> NetError = { [endpoint] timeout in
                NetError(kind: .timedOut, endpoint: endpoint, detail: "nothing received within \(timeout.shortDescription)")
            }
            let (isClosed, wantsBytes, write, deadline, expired) = mailbox.withLock { mailbox in
                let expired = mailbox.expireReads(now: now, error: timedOut)
                return (mailbox.closed != nil, mailbox.wantsBytes(limit: Self.readAheadLimit), mailbox.nextWrite(),
                        mailbox.earliestDeadline, expired)
            }
            resume(expired)
            if isClosed { return }

            var progressed = false
            if wantsBytes && !state.readBlocked {
                progressed = receive(connection, into: scratch, state: &state) || progressed
            }
            if let write, !state.writeBlocked {
                progressed = send(write, on: connection, state: &state) || progressed
            }
            if progressed { continue }
            wait(on: connection.socket, wantsBytes: wantsBytes, hasWrite: write != nil, deadline: deadline, state: &state)
        }
    }

    /// One receive; returns whether anything changed.
    private func receive(_ connection: StreamConnection, into scratch: UnsafeMutableRawBufferPointer, state: inout SocketState) -> Bool {
        let resumptions: [StreamMailbox.Resumption]
        switch connection.receive(into: scratch) {
        case .bytes(let count):
            resumptions = mailbox.withLock { $0.received(UnsafeRawBufferPointer(rebasing: scratch[..<count])) }
        case .wouldBlock:
            state.readBlocked = true
            return false
        case .peerClosed:
            let error = NetError(kind: .closedByPeer, endpoint: endpoint, detail: "the server closed the connection")
            resumptions = mailbox.withLock { $0.endReading(error) }
        case .failed(let error):
            resumptions = mailbox.withLock { $0.endReading(error) }
        }
        resume(resumptions)
        return true
    }

    /// One send; returns whether anything changed.
    private func send(_ write: StreamMailbox.WriteJob, on connection: StreamConnection, state: inout SocketState) -> Bool {
        switch connection.send(write.bytes, from: write.sent, limit: Self.sendChunk) {
        case .bytes(let count):
            state.writeNeedsReadable = false
            let resumption = mailbox.withLock { $0.wrote(count, of: write.id) }
            resumption?()
        case .wouldBlock:
            state.writeBlocked = true
            // A full socket buffer is the usual reason; room in it means TLS waits for the peer.
            state.writeNeedsReadable = Self.hasRoom(connection.socket)
            return false
        case .failed(let error):
            resume(mailbox.withLock { $0.endWriting(error) })
        }
        return true
    }

    /// Sleeps until the socket can go on in a blocked direction, a task wakes the thread, or
    /// the earliest read deadline passes.
    private func wait(on socket: Int32, wantsBytes: Bool, hasWrite: Bool, deadline: ContinuousClock.Instant?, state: inout SocketState) {
        var events: Int16 = 0
        var timeout: Int32 = -1
        if let deadline {
            let left = (deadline - ContinuousClock.now).milliseconds + 1
            timeout = Int32(clamping: max(0, left))
        }
        if wantsBytes && state.readBlocked { events |= Int16(POLLIN) }
        let writeWaits = hasWrite && state.writeBlocked
        if writeWaits && state.writeNeedsReadable {
            // Writability would fire at once and stay; the peer's bytes (or, with a full inbox,
            // a short while) are what the write waits for.
            if wantsBytes { events |= Int16(POLLIN) }
            timeout = timeout < 0 ? 10 : min(timeout, 10)
        } else if writeWaits {
            events |= Int16(POLLOUT)
        }
        // A negative descriptor is ignored: nothing is asked of the socket (its hang-up would
        // otherwise wake the thread again and again).
        var descriptors = [
            pollfd(fd: events == 0 ? -1 : socket, events: events, revents: 0),
            pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if writeWaits && state.writeNeedsReadable {
            state.writeBlocked = false
        }
        guard ready > 0 else { return }
        if descriptors[1].revents != 0 {
            wakePipe.drain()
        }
        let revents = Int32(descriptors[0].revents)
        if revents & (POLLIN | POLLHUP | POLLERR) != 0 {
            state.readBlocked = false
        }
        if revents & (POLLOUT | POLLHUP | POLLERR) != 0 {
            state.writeBlocked = false
        }
    }

    /// Whether the socket's send buffer has room now (poll without waiting).
    private static func hasRoom(_ socket: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && Int32(descriptor.revents) & POLLOUT != 0
    }
}
