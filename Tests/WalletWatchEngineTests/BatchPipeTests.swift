import Foundation
import Testing
@testable import WalletWatchEngine

/// The pipe between libcurl's transfer thread and the database writer.
@Suite("BatchPipe: the decode-to-write window", .timeLimit(.minutes(1)))
struct BatchPipeTests {
    /// A thread of its own (a stand-in for libcurl's transfer thread, which may block),
    /// started at once: the consumer below blocks its own thread, so the producer must not
    /// need one from the cooperative pool to start.
    final class ProducerThread: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var outcome: Result<Void, any Error> = .success(())

        init(_ body: @escaping @Sendable () throws -> Void) {
            Thread {
                self.outcome = Result { try body() }
                self.done.signal()
            }.start()
        }

        /// Waits for the thread to end (a blocking wait: only once the consumer is done).
        func join() -> Result<Void, any Error> {
            done.wait()
            return outcome
        }
    }

    @Test("every element arrives once, in order, in batches; the window never holds more than its capacity and the last batch")
    func orderAndBound() throws {
        let pipe = BatchPipe<Int>(batchSize: 10, capacity: 3)
        let count = 10_007
        let producer = ProducerThread { for i in 0..<count { try pipe.push(i) }; pipe.finish() }
        var received: [Int] = []
        var largestWindow = 0
        while let batch = try pipe.next() {
            #expect(batch.count <= 10)
            received += batch
            largestWindow = max(largestWindow, pipe.bufferedBatches)
        }
        try producer.join().get()
        #expect(received == Array(0..<count))
        #expect(largestWindow <= 3 + 1)
    }

    @Test("finish never waits, even on a full pipe: it may run on a cooperative thread")
    func finishDoesNotWait() throws {
        let pipe = BatchPipe<Int>(batchSize: 2, capacity: 1)
        try pipe.push(1)
        try pipe.push(2)  // the pipe is now full
        try pipe.push(3)  // a partial batch
        pipe.finish()     // would block forever if it waited for room
        #expect(try pipe.next() == [1, 2])
        #expect(try pipe.next() == [3])
        #expect(try pipe.next() == nil)
    }

    @Test("a consumer that gives up releases a producer waiting on a full pipe")
    func cancelReleasesTheProducer() throws {
        let pipe = BatchPipe<Int>(batchSize: 1, capacity: 1)
        let producer = ProducerThread { var i = 0; while true { try pipe.push(i); i += 1 } }
        #expect(try pipe.next() == [0])
        pipe.cancel()
        let outcome = producer.join()
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    @Test("the producer's error reaches the consumer")
    func failure() throws {
        struct Broken: Error {}
        let pipe = BatchPipe<Int>(batchSize: 5, capacity: 2)
        try pipe.push(1)
        pipe.fail(Broken())
        #expect(throws: Broken.self) { try pipe.next() }
    }
}
