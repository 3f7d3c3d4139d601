import Synchronization
import WalletWatchCore
import WalletWatchNet

/// One connection to an Electrum server (SPEC.md section 21): newline-delimited JSON-RPC over
/// a transport, calls sent in batches and matched to their answers by id, notifications handed
/// to whoever listens.
///
/// Invariants:
/// - Every call of a batch is registered before its bytes are written, so no answer can arrive
///   for an id nobody waits for; an answer to an id that was never asked is a broken server.
/// - A batch is one write of one line (a JSON-RPC array, or a lone call); each `call` waited on
///   counts one round trip, each call one request.
/// - ElectrumX holds a small reply back for up to a second once a session has received 1 KiB
///   (privacy padding: `PaddedRSTransport`, which sends at once only what reaches 1 KiB): a
///   pass that waits on three small replies would take three seconds. With a ``padding`` call
///   set, a small batch on such a connection also carries it (the last headers, 1,120 bytes, of
///   use to the caller), so that its answer is sent at once.
/// - The first failure of the connection (the server closed it, sent a line longer than
///   `maxLineBytes`, sent something that is not JSON-RPC, or let a batch wait past `timeout`)
///   fails every waiting batch and every later call with that one-line reason, and closes the
///   transport. A connection is never used again after a failure: callers open a new one.
/// - An answer that is an error object fails only its own call (the caller decides).
public final class ElectrumConnection: Sendable {
    /// What a server may send, and how long it may take.
    public struct Limits: Sendable {
        /// The longest line accepted (`[http] max_response_bytes`).
        public var maxLineBytes: Int
        /// How long a batch may wait for its answers.
        public var timeout: Duration

        /// Limits of a connection.
        public init(maxLineBytes: Int, timeout: Duration) {
            self.maxLineBytes = maxLineBytes
            self.timeout = timeout
        }
    }

    /// The configured source, for messages.
    public let source: String
    /// `tcp://host:port` or `ssl://host:port`, for messages.
    public let endpoint: String
    let limits: Limits
    private let transport: any ElectrumTransport
    private let state = Mutex(State())
    /// What the server sends on its own, in order; finishes when the connection fails or closes.
    public let notifications: AsyncStream<ElectrumNotification>
    private let notificationSink: AsyncStream<ElectrumNotification>.Continuation

    private struct State {
        var nextID = 1
        var pending: [Int: (batch: Batch, index: Int)] = [:]
        var failure: SourceError?
        var requests = 0
        var roundTrips = 0
        var received = 0
        var padding: ElectrumCall?
        var reader: Task<Void, Never>?
    }

    /// The longest line a notification may come on, method, parameters and all: a real one is
    /// a few hundred bytes (a scripthash and a status, or a height and an 80-byte header).
    static let maxNotificationBytes = 4096
    /// Notifications waiting for a follower that is busy (a daemon in the middle of a pass): at
    /// most this many, 16 MiB with the line limit. A connection nobody follows keeps none.
    static let bufferedNotifications = 4096

    /// A batch with fewer calls than this expects a small answer.
    static let smallBatch = 8
    /// What a server sends at once before it holds small replies back (ElectrumX's warm-up budget).
    static let heldAfterBytes = 1024

    /// A connection over `transport`, reading from it until it fails or is closed. Close it
    /// when done: its reader keeps it (and the transport) alive until then. Unless `following`
    /// (the daemon, which reads ``notifications``), the server's notifications are checked and
    /// dropped: a one-shot pass reads statuses from its own calls, and must not hold thousands
    /// of notifications nobody reads.
    public init(transport: any ElectrumTransport, source: String, endpoint: String, limits: Limits, following: Bool = false) {
        self.transport = transport
        self.source = source
        self.endpoint = endpoint
        self.limits = limits
        (notifications, notificationSink) = AsyncStream.makeStream(
            of: ElectrumNotification.self, bufferingPolicy: .bufferingNewest(following ? Self.bufferedNotifications : 0))
        let reader = Task { [weak self] in
            guard let self else { return }
            await self.readLoop()
        }
        state.withLock { $0.reader = reader }
    }

    /// Calls made and batches waited on, since the connection opened.
    public var counts: (requests: Int, roundTrips: Int) {
        state.withLock { ($0.requests, $0.roundTrips) }
    }

    /// Why the connection no longer works, once it does not.
    public var failure: SourceError? { state.withLock { $0.failure } }

    /// The call that small batches carry on a server that holds small replies back (nil: none).
    public var padding: ElectrumCall? {
        get { state.withLock { $0.padding } }
        set { state.withLock { $0.padding = newValue } }
    }

    /// Sends `calls` in one write and returns their answers in the same order.
    public func call(_ calls: [ElectrumCall]) async throws -> [ElectrumReply] {
        try await numberedCall(calls).map(\.reply)
    }

    /// Sends `calls` in one write and returns their answers in the same order, each with the
    /// number of the line it arrived on.
    public func numberedCall(_ calls: [ElectrumCall]) async throws -> [NumberedReply] {
        guard !calls.isEmpty else { return [] }
        let (batch, bytes, sent) = try state.withLock { state -> (Batch, [UInt8], [ElectrumCall]) in
            if let failure = state.failure { throw failure }
            var sent = calls
            if let padding = state.padding, calls.count < Self.smallBatch, state.received >= Self.heldAfterBytes {
                sent.append(padding)
            }
            let batch = Batch(count: sent.count)
            var lines: [[UInt8]] = []
            for (index, call) in sent.enumerated() {
                state.pending[state.nextID] = (batch, index)
                lines.append(call.line(id: state.nextID))
                state.nextID += 1
            }
            state.requests += sent.count
            state.roundTrips += 1
            let line = sent.count == 1 ? lines[0] : Array("[".utf8) + Array(lines.joined(separator: Array(",".utf8))) + Array("]".utf8)
            return (batch, line + [0x0A], sent)
        }
        let methods = Set(sent.map(\.method)).sorted().joined(separator: ", ")
        // A big batch takes the server longer (ElectrumX slows a busy session down on purpose).
        let timeout = limits.timeout + .milliseconds(50 * sent.count)
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let self else { return }
            self.fail(self.problem("no answer to \(methods) within \(timeout.shortText)", cause: .transport(.timedOut)))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            do {
                try await transport.write(bytes)
            } catch {
                fail(problem(Self.reason(error), cause: .transport((error as? NetError)?.kind ?? .transport)))
            }
            return Array(try await batch.wait().prefix(calls.count))
        } onCancel: {
            batch.fail(problem("cancelled", cause: .transport(.cancelled)))
        }
    }

    /// Closes the connection: waiting batches fail, notifications end.
    public func close() {
        fail(problem("the connection was closed", cause: .transport(.cancelled)))
    }

    /// A failure of this connection, naming its source and server.
    func problem(_ text: String, method: String? = nil, cause: SourceError.Cause = .answer) -> SourceError {
        SourceError(source: source, request: method.map { "\(endpoint) \($0)" } ?? endpoint, problem: text, cause: cause)
    }

    /// Fails the connection once: every waiting batch and every later call get `failure`.
    private func fail(_ failure: SourceError) {
        let first = state.withLock { state -> (waiting: [Batch], reader: Task<Void, Never>?)? in
            guard state.failure == nil else { return nil }
            state.failure = failure
            let waiting = state.pending.values.map(\.batch)
            state.pending.removeAll()
            return (waiting, state.reader)
        }
        guard let (waiting, reader) = first else { return }
        for batch in waiting { batch.fail(failure) }
        notificationSink.finish()
        transport.close()
        reader?.cancel()
    }

    // MARK: - Reading

    private func readLoop() async {
        var buffer: [UInt8] = []
        var lineNumber = 0
        while !Task.isCancelled {
            let chunk: [UInt8]
            do {
                chunk = try await transport.read(maxBytes: 1 << 16)
            } catch {
                return fail(problem(Self.reason(error), cause: .transport((error as? NetError)?.kind ?? .transport)))
            }
            guard !chunk.isEmpty else {
                return fail(problem("the server closed the connection", cause: .transport(.connectionFailed)))
            }
            state.withLock { $0.received += chunk.count }
            var start = buffer.count
            buffer += chunk
            var lineStart = 0
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[lineStart..<newline])
                lineStart = newline + 1
                start = lineStart
                guard line.count <= limits.maxLineBytes else { return failTooLong() }
                lineNumber += 1
                do {
                    try handle(line, number: lineNumber)
                } catch let failure as SourceError {
                    return fail(failure)
                } catch let unaddressed as ElectrumUnaddressedError {
                    return fail(problem(ElectrumClient.explain(code: unaddressed.code, message: unaddressed.message) + ", to a request it could not read"))
                } catch {
                    return fail(problem("the server sent a message that is not JSON-RPC: \(error)"))
                }
            }
            buffer.removeFirst(lineStart)
            guard buffer.count <= limits.maxLineBytes else { return failTooLong() }
        }
    }

    private func failTooLong() {
        fail(problem("the server sent a line longer than \(limits.maxLineBytes) bytes, the most [http] max_response_bytes allows"))
    }

    /// One line (the `number`th): a reply, a batch of replies, or a notification.
    private func handle(_ line: [UInt8], number: Int) throws {
        // Servers may pad their lines with spaces (ElectrumX does); an empty line says nothing.
        guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { return }
        let messages = try JSONReader.read(line) { reader -> [ElectrumMessage] in
            switch reader.peekKind() {
            case .object: return [try ElectrumMessage(&reader)]
            case .array:
                var list: [ElectrumMessage] = []
                try reader.readArray { reader, _ in list.append(try ElectrumMessage(&reader)) }
                return list
            default: throw reader.error("expected a JSON-RPC object or array")
            }
        }
        for message in messages {
            switch message {
            case .reply(let id, let reply):
                guard let waiting = state.withLock({ $0.pending.removeValue(forKey: id) }) else {
                    throw problem("the server answered a request that was never sent (id \(id))")
                }
                waiting.batch.deliver(NumberedReply(reply: reply, line: number), at: waiting.index)
            case .notification(var notification):
                // The whole line counts: a method name of megabytes is as absurd as such params.
                guard line.count <= Self.maxNotificationBytes else {
                    let method = ElectrumMessage.oneLine(String(notification.method.prefix(100)))
                    throw problem("the server sent a \(method) notification of \(line.count) bytes; at most \(Self.maxNotificationBytes) are expected")
                }
                notification.line = number
                notificationSink.yield(notification)
            }
        }
    }

    static func reason(_ error: any Error) -> String {
        if let net = error as? NetError { return net.detail }
        if let classified = error as? any Classified { return classified.description }
        return "\(error)"
    }
}

/// The answers of one batch as they arrive, and the task that waits for them.
private final class Batch: Sendable {
    private struct State {
        var replies: [NumberedReply?]
        var remaining: Int
        var failure: SourceError?
        var waiter: CheckedContinuation<[NumberedReply], any Error>?
        var finished = false
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(replies: Array(repeating: nil, count: count), remaining: count))
    }

    func deliver(_ reply: NumberedReply, at index: Int) {
        state.withLock { state in
            guard state.replies[index] == nil else { return }
            state.replies[index] = reply
            state.remaining -= 1
        }
        finishIfDone()
    }

    func fail(_ failure: SourceError) {
        state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
        finishIfDone()
    }

    func wait() async throws -> [NumberedReply] {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.waiter = continuation }
            finishIfDone()
        }
    }

    /// Resumes the waiter once, when it waits and every answer (or a failure) is in.
    private func finishIfDone() {
        let resume = state.withLock { state -> (CheckedContinuation<[NumberedReply], any Error>, Result<[NumberedReply], any Error>)? in
            guard !state.finished, let waiter = state.waiter else { return nil }
            if let failure = state.failure {
                state.finished = true
                return (waiter, .failure(failure))
            }
            guard state.remaining == 0 else { return nil }
            state.finished = true
            return (waiter, .success(state.replies.map { $0! }))
        }
        if let (waiter, result) = resume { waiter.resume(with: result) }
    }
}

extension Duration {
    /// "20 s", "1.5 s" or "300 ms", for messages.
    var shortText: String {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
