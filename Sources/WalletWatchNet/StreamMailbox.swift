/// What the tasks using a ``CurlStream`` and its thread share: the reads and writes waiting,
/// the bytes received and not yet read, and why either direction ended. Guarded by the event
/// loop's mutex; every method runs with it held and returns the continuations to resume, which
/// the caller resumes after letting go of the lock.
///
/// Invariants:
/// - A read is answered only with bytes from `inbox`, in arrival order, by the oldest waiting
///   read first; bytes are never lost between a cancelled read and the next one.
/// - A write's bytes go out whole and in the order the writes were made; a write whose bytes
///   have begun to go out stays at the head until all of them did (a cancelled one too, so
///   that the stream stays framed), and only its caller stops waiting.
/// - Once `closed` is set nothing waits any more and nothing new is accepted.
struct StreamMailbox {
    /// A continuation to resume once the lock is released.
    typealias Resumption = @Sendable () -> Void

    struct PendingRead {
        let id: UInt64
        let maxBytes: Int
        let deadline: ContinuousClock.Instant?
        let timeout: Duration?
        let continuation: CheckedContinuation<[UInt8], any Error>
    }

    struct PendingWrite {
        let id: UInt64
        let bytes: [UInt8]
        var sent = 0
        /// Whether the thread has begun to send it (it can no longer be withdrawn).
        var isStarted = false
        /// Nil once its caller stopped waiting (cancelled while its bytes were going out).
        var continuation: CheckedContinuation<Void, any Error>?
    }

    /// What the thread takes to send next.
    struct WriteJob {
        let id: UInt64
        let bytes: [UInt8]
        let sent: Int
    }

    /// Received and not yet read.
    private(set) var inbox = ByteQueue()
    private(set) var reads: [PendingRead] = []
    private(set) var writes: [PendingWrite] = []
    /// Why no more bytes will arrive; reads get it once `inbox` is empty.
    private(set) var readEnd: NetError?
    /// Why no more bytes can be sent.
    private(set) var writeEnd: NetError?
    /// Why the stream is closed (on this side), once it is.
    private(set) var closed: NetError?
    /// The caller of `connect`, until the connection is made or abandoned.
    var connectWaiter: CheckedContinuation<CertificatePin?, any Error>?

    // MARK: - Reads

    /// Answers a read at once from the inbox or with why nothing more comes, or queues it.
    /// Returns whether the thread must be woken (to sleep no longer than the read's timeout,
    /// or to receive again now that the inbox is below `readAheadLimit`) and what to resume.
    mutating func enqueueRead(_ read: PendingRead, readAheadLimit: Int) -> (wake: Bool, resume: [Resumption]) {
        if let closed { return (false, [fail(read.continuation, closed)]) }
        if reads.isEmpty && !inbox.isEmpty {
            let wasFull = inbox.count >= readAheadLimit
            let bytes = inbox.take(upTo: read.maxBytes)
            return (wasFull, [{ read.continuation.resume(returning: bytes) }])
        }
        if reads.isEmpty, let readEnd { return (false, [fail(read.continuation, readEnd)]) }
        reads.append(read)
        return (true, [])
    }

    /// Adds received bytes and answers the waiting reads from them.
    mutating func received(_ bytes: UnsafeRawBufferPointer) -> [Resumption] {
        guard closed == nil else { return [] }
        inbox.append(bytes)
        var resumptions: [Resumption] = []
        while !reads.isEmpty && !inbox.isEmpty {
            let read = reads.removeFirst()
            let chunk = inbox.take(upTo: read.maxBytes)
            resumptions.append { read.continuation.resume(returning: chunk) }
        }
        return resumptions
    }

    /// No more bytes will arrive: the waiting reads get `error` (there is nothing in the inbox
    /// while reads wait), later ones once the inbox is empty.
    mutating func endReading(_ error: NetError) -> [Resumption] {
        guard readEnd == nil else { return [] }
        readEnd = error
        let failed = reads.map { fail($0.continuation, error) }
        reads = []
        return failed
    }

    /// Withdraws a waiting read; nil when it was answered already.
    mutating func cancelRead(_ id: UInt64, with error: NetError) -> Resumption? {
        guard let index = reads.firstIndex(where: { $0.id == id }) else { return nil }
        return fail(reads.remove(at: index).continuation, error)
    }

    /// Fails the reads whose timeout has passed, each with its own timeout in the message.
    mutating func expireReads(now: ContinuousClock.Instant, error: (Duration) -> NetError) -> [Resumption] {
        var resumptions: [Resumption] = []
        reads.removeAll { read in
            guard let deadline = read.deadline, let timeout = read.timeout, deadline <= now else { return false }
            resumptions.append(fail(read.continuation, error(timeout)))
            return true
        }
        return resumptions
    }

    /// The earliest read deadline, which bounds how long the thread may sleep.
    var earliestDeadline: ContinuousClock.Instant? {
        reads.compactMap(\.deadline).min()
    }

    /// Whether the thread should receive: the connection may still deliver and the inbox is
    /// below `limit` (beyond it, the kernel's buffers and TCP flow control hold the peer back).
    func wantsBytes(limit: Int) -> Bool {
        closed == nil && readEnd == nil && inbox.count < limit
    }

    // MARK: - Writes

    /// Queues a write, or fails it at once when nothing can be sent. An empty write succeeds at once.
    mutating func enqueueWrite(id: UInt64, bytes: [UInt8], continuation: CheckedContinuation<Void, any Error>) -> (queued: Bool, resume: [Resumption]) {
        if let error = closed ?? writeEnd { return (false, [fail(continuation, error)]) }
        if bytes.isEmpty { return (false, [{ continuation.resume() }]) }
        writes.append(PendingWrite(id: id, bytes: bytes, continuation: continuation))
        return (true, [])
    }

    /// The oldest write, now started; nil when none waits or nothing can be sent.
    mutating func nextWrite() -> WriteJob? {
        guard closed == nil, writeEnd == nil, !writes.isEmpty else { return nil }
        writes[0].isStarted = true
        return WriteJob(id: writes[0].id, bytes: writes[0].bytes, sent: writes[0].sent)
    }

    /// Records that `count` more bytes of write `id` went out; completes it once all did.
    mutating func wrote(_ count: Int, of id: UInt64) -> Resumption? {
        guard let first = writes.first, first.id == id else { return nil }
        writes[0].sent += count
        guard writes[0].sent >= first.bytes.count else { return nil }
        writes.removeFirst()
        guard let continuation = first.continuation else { return nil }
        return { continuation.resume() }
    }

    /// Nothing more can be sent: every write waiting fails with `error`.
    mutating func endWriting(_ error: NetError) -> [Resumption] {
        guard writeEnd == nil else { return [] }
        writeEnd = error
        let failed = writes.compactMap { $0.continuation.map { fail($0, error) } }
        writes = []
        return failed
    }

    /// Releases the caller of a write: a write not yet started is withdrawn (none of it is
    /// sent); one whose bytes are going out is finished without its caller. Nil when it was
    /// done already.
    mutating func cancelWrite(_ id: UInt64, with error: NetError) -> Resumption? {
        guard let index = writes.firstIndex(where: { $0.id == id }) else { return nil }
        if writes[index].isStarted {
            guard let continuation = writes[index].continuation else { return nil }
            writes[index].continuation = nil
            return fail(continuation, error)
        }
        return writes.remove(at: index).continuation.map { fail($0, error) }
    }

    // MARK: - Closing

    /// Closes on this side: everything waiting, the connect included, fails with `error`, and
    /// the bytes not yet read are dropped. Only the first call does anything.
    mutating func close(_ error: NetError) -> [Resumption] {
        guard closed == nil else { return [] }
        closed = error
        var resumptions = reads.map { fail($0.continuation, error) }
        resumptions += writes.compactMap { $0.continuation.map { fail($0, error) } }
        if let connectWaiter { resumptions.append(fail(connectWaiter, error)) }
        reads = []
        writes = []
        connectWaiter = nil
        inbox = ByteQueue()
        return resumptions
    }

}

/// Resuming `continuation` with `error`, for later.
private func fail<T>(_ continuation: CheckedContinuation<T, any Error>, _ error: NetError) -> StreamMailbox.Resumption {
    { continuation.resume(throwing: error) }
}

/// Bytes in arrival order, taken from the front without moving the rest each time.
struct ByteQueue {
    private var storage: [UInt8] = []
    private var start = 0

    var count: Int { storage.count - start }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // Dropping what was read is cheap here, once it is most of the storage.
        if start > 0 && start >= storage.count / 2 {
            storage.removeFirst(start)
            start = 0
        }
        storage.append(contentsOf: bytes)
    }

    /// Removes and returns the first `maxBytes` bytes (fewer when there are fewer).
    mutating func take(upTo maxBytes: Int) -> [UInt8] {
        let end = start + min(maxBytes, count)
        let bytes = Array(storage[start..<end])
        start = end
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        }
        return bytes
    }
}
