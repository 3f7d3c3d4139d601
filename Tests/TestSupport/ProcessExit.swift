import Foundation

/// The exit of a program a test started (``BackgroundProcess``, ``TerminalProcess``): its status
/// once it ended, and a wait for it that never blocks a thread. Install it as the process's
/// termination handler before the process runs.
final class ProcessExit: @unchecked Sendable {
    private let exited = AsyncStream<Int32>.makeStream()
    private let lock = NSLock()
    private var ended: Int32?

    /// Records the exit of `process`, once it has run.
    func watch(_ process: Process) {
        let continuation = exited.continuation
        process.terminationHandler = { [weak self] process in
            self?.lock.withLock { self?.ended = process.terminationStatus }
            continuation.yield(process.terminationStatus)
            continuation.finish()
        }
    }

    /// The exit status, nil while the program runs.
    var status: Int32? { lock.withLock { ended } }

    /// The exit status, or nil when the program is still running after `timeout`.
    func status(within timeout: Duration) async -> Int32? {
        if let status { return status }
        return await withTaskGroup(of: Int32?.self) { group in
            group.addTask { [exited] in
                for await status in exited.stream { return status }
                return self.status
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
