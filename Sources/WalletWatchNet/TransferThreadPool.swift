#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The dedicated threads that run libcurl transfers, which block their thread; Swift's
/// cooperative threads only ever wait on a continuation.
///
/// Threads are made on demand up to a maximum and then kept, each with its own ``CurlHandles``.
/// Work goes to the most recently parked thread (its connections are the warmest, which is what
/// makes keep-alive work across sequential requests); when every thread is busy and the maximum
/// is reached, jobs wait in a first-in, first-out queue.
///
/// A job returns its completion (resuming the waiting task) instead of calling it, and the thread
/// calls it only once it is parked: the task's next request then finds this thread, with its
/// kept-alive connection, rather than racing it and starting a new thread.
///
/// Unchecked Sendable: its mutable state is only touched with `lock` held.
final class TransferThreadPool: @unchecked Sendable {
    /// A job receives the handles of the thread that runs it and returns its completion.
    typealias Job = @Sendable (CurlHandles) -> Completion
    /// Delivers a job's result; called on the transfer thread once it is ready for more work.
    typealias Completion = () -> Void

    /// A parked thread's mailbox.
    private final class Parking {
        let condition = ThreadCondition()
        var job: Job?
    }

    private let share: CurlShare?
    private let maximumThreads: Int
    private let lock = ThreadLock()
    // Everything below is guarded by `lock`.
    private var parked: [Parking] = []
    private var queue: [Job] = []
    private var threadCount = 0
    private var isShutDown = false

    init(share: CurlShare?, maximumThreads: Int) {
        self.share = share
        self.maximumThreads = max(1, maximumThreads)
    }

    /// Runs `job` on a transfer thread. Returns false when no thread could be started (the job
    /// will then never run, and the caller must report that).
    func submit(_ job: @escaping Job) -> Bool {
        enum Placement { case handedOver, queued, needsThread }
        let placement: Placement = lock.withLock {
            if let parking = parked.popLast() {
                parking.job = job
                parking.condition.signal()
                return .handedOver
            }
            if threadCount < maximumThreads {
                threadCount += 1
                return .needsThread
            }
            queue.append(job)
            return .queued
        }
        guard placement == .needsThread else { return true }
        if startThread(firstJob: job) { return true }
        return lock.withLock {
            threadCount -= 1
            // Another thread will get to it; only with no thread at all is the job lost.
            if let parking = parked.popLast() {
                parking.job = job
                parking.condition.signal()
                return true
            }
            guard threadCount > 0 else { return false }
            queue.append(job)
            return true
        }
    }

    /// Lets the threads finish: each one ends once it has no more work.
    func shutDown() {
        lock.withLock {
            isShutDown = true
            for parking in parked {
                parking.condition.signal()
            }
        }
    }

    private func startThread(firstJob: @escaping Job) -> Bool {
        guard let handles = CurlHandles(share: share) else { return false }
        let start = Unmanaged.passRetained(ThreadStart(pool: self, handles: handles, firstJob: firstJob))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { context in
            // The thread owns the start box, and through it the pool and the handles.
            let start = Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue()
            start.pool.runThread(handles: start.handles, firstJob: start.firstJob)
            return nil
        }, start.toOpaque())
        guard result == 0 else {
            start.release()
            return false
        }
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
        return true
    }

    private func runThread(handles: CurlHandles, firstJob: @escaping Job) {
        var job = firstJob
        while true {
            let completion = job(handles)
            guard let next = nextJob(completing: completion) else { return }
            job = next
        }
    }

    /// The next job for a thread that finished one: a queued job, or else the thread parks, calls
    /// `completion`, and waits for a job. Nil once the pool is shut down.
    private func nextJob(completing completion: Completion) -> Job? {
        let parking = Parking()
        let queued: Job?? = lock.withLock {
            if !queue.isEmpty { return .some(queue.removeFirst()) }
            if isShutDown {
                threadCount -= 1
                return .some(nil)
            }
            parked.append(parking)
            return .none
        }
        completion()
        if let queued { return queued }
        return lock.withLock {
            // A job handed over before this wait is seen by the check, so no wake-up is lost.
            while parking.job == nil && !isShutDown {
                parking.condition.wait(releasing: lock)
            }
            if let job = parking.job {
                return job
            }
            parked.removeAll { $0 === parking }
            threadCount -= 1
            return nil
        }
    }
}

/// What a new thread starts with, passed through pthread_create's context pointer.
private final class ThreadStart {
    let pool: TransferThreadPool
    let handles: CurlHandles
    let firstJob: TransferThreadPool.Job

    init(pool: TransferThreadPool, handles: CurlHandles, firstJob: @escaping TransferThreadPool.Job) {
        self.pool = pool
        self.handles = handles
        self.firstJob = firstJob
    }
}
