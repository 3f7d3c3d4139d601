import Foundation

/// Hands decoded elements over from the transfer thread to the database writer in batches,
/// holding at most `capacity` batches (plus the last one): decoding and writing overlap, and
/// memory is bounded by the window, not by the size of the response. A full pipe blocks
/// ``push(_:)`` (backpressure: libcurl's thread waits, which that dedicated thread may do);
/// ``finish()``, ``fail(_:)`` and ``cancel()`` never wait, so they may be called from Swift's
/// cooperative threads, which must never block on each other.
final class BatchPipe<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var current: [Element] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private let batchSize: Int
    private let capacity: Int

    init(batchSize: Int = 2048, capacity: Int = 4) {
        self.batchSize = batchSize
        self.capacity = capacity
        current.reserveCapacity(batchSize)
    }

    /// Adds an element (producer side); waits while the pipe is full. Throws once the consumer
    /// cancelled, so that the transfer stops.
    func push(_ element: Element) throws {
        current.append(element)
        guard current.count >= batchSize else { return }
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw CancellationError() }
        batches.append(current)
        condition.broadcast()
        current = []
        current.reserveCapacity(batchSize)
    }

    /// The producer is done: the rest of the last batch is handed over at once, even to a
    /// full pipe.
    func finish() {
        condition.lock()
        if !current.isEmpty && !cancelled { batches.append(current) }
        current = []
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The producer failed: the consumer gets the error.
    func fail(_ error: any Error) {
        condition.lock()
        failure = error
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer gave up: a waiting producer is released with an error.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// How many batches wait for the consumer.
    var bufferedBatches: Int {
        condition.lock()
        defer { condition.unlock() }
        return batches.count
    }

    /// The next batch (consumer side), waiting for it; nil once everything was handed over.
    /// Throws the producer's error.
    func next() throws -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !finished { condition.wait() }
        if let failure { throw failure }
        guard !batches.isEmpty else { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }
}
