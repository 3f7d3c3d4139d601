/// Wakes the daemon's waiting loops before their timers: a barkd or Electrum notification, or
/// shutdown.
///
/// Any number of tasks may wait at once (the notification targets' loops share one): `fire()`
/// wakes every waiter, and a wake-up that arrives while nobody waits is kept for the next
/// wait. `close()` is for shutdown: it wakes every waiter and makes every later wait return at
/// once, so no loop can miss it by starting to wait just after it. A cancelled waiter returns
/// at once too. Each wait resumes its continuation exactly once, whichever comes first.
actor Wakeup {
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var timers: [Int: Task<Void, Never>] = [:]
    private var nextID = 0
    private var pending = false
    private var closed = false

    /// Wakes every waiting task, or the next one to wait when none does.
    func fire() {
        guard !waiters.isEmpty else {
            pending = true
            return
        }
        resumeAll()
    }

    /// Wakes every waiting task and lets every later wait return at once.
    func close() {
        closed = true
        resumeAll()
    }

    /// How many tasks wait now.
    var waiting: Int { waiters.count }

    /// Returns when fired or closed, after `duration`, or when the calling task is cancelled.
    func wait(for duration: Duration) async {
        if closed { return }
        if pending {
            pending = false
            return
        }
        nextID += 1
        let id = nextID
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume() }
                waiters[id] = continuation
                timers[id] = Task { [weak self] in
                    try? await Task.sleep(for: duration)
                    await self?.resume(id)
                }
            }
        } onCancel: {
            Task { await self.resume(id) }
        }
    }

    /// Resumes waiter `id` if it still waits (its timer, or its cancellation).
    private func resume(_ id: Int) {
        timers.removeValue(forKey: id)?.cancel()
        waiters.removeValue(forKey: id)?.resume()
    }

    private func resumeAll() {
        for id in Array(waiters.keys) { resume(id) }
    }
}
