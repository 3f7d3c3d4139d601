#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex that condition variables can wait on. The transfer threads park on it between
/// transfers; `Synchronization.Mutex` cannot wait on a condition, so it does not fit here.
/// Unchecked Sendable: a pthread mutex exists to be used from several threads, and its storage
/// is allocated once and never moves.
final class ThreadLock: @unchecked Sendable {
    // Heap-allocated because a pthread mutex must not move once initialised.
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A condition variable used with a ``ThreadLock``: one per parked transfer thread, so that work
/// can be handed to a particular thread (the one whose connections are warmest). Unchecked
/// Sendable for the same reason as ``ThreadLock``.
final class ThreadCondition: @unchecked Sendable {
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
    }

    /// Wakes the thread waiting on this condition, if any.
    func signal() {
        pthread_cond_signal(condition)
    }

    /// Waits for ``signal()``; must be called inside `lock.withLock`. May wake spuriously, so
    /// callers re-check their predicate in a loop.
    func wait(releasing lock: ThreadLock) {
        pthread_cond_wait(condition, lock.mutex)
    }
}
