import Synchronization

/// The passes this process gave up without being able to mark them ownerless (the disk was
/// full, so even that write failed).
///
/// Such a pass's claim still names this process, which is alive, so it looks like a pass that
/// is still running: without this list, every later pass of its source in the same daemon would
/// wait for it, and fail, until the daemon restarts. Another process takes it over as soon as
/// this one has ended (its owner is then gone).
final class AbandonedPasses: Sendable {
    private let ids = Mutex<Set<Int64>>([])

    /// Notes that `pass` was given up.
    func insert(_ pass: Int64) {
        ids.withLock { _ = $0.insert(pass) }
    }

    /// Whether `pass` was given up by this process.
    func contains(_ pass: Int64) -> Bool {
        ids.withLock { $0.contains(pass) }
    }

    /// Forgets `pass` once it has been taken over.
    func remove(_ pass: Int64) {
        ids.withLock { _ = $0.remove(pass) }
    }
}
