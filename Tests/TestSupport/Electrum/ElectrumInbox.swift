import Foundation

/// The lines an ``ElectrumTestClient`` received, in order, each taken once: by a predicate (an
/// answer by id, a notification) or in order (raw reading). Waiting is bounded by a timeout.
actor ElectrumInbox {
    /// One received line.
    struct Line: @unchecked Sendable {
        let bytes: [UInt8]
        /// The line decoded as JSON, when it is JSON.
        let json: Any?
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    private var lines: [Line] = []
    private var taken: Set<Int> = []
    private var closed = false
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    func append(_ bytes: [UInt8]) {
        lines.append(Line(bytes: bytes, json: try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])))
        wakeAll()
    }

    func close() {
        closed = true
        wakeAll()
    }

    /// The first line not taken yet that matches `predicate`, taken.
    func take(within timeout: Duration, where predicate: @Sendable (Line) -> Bool) async throws -> Line {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = lines.indices.first(where: { !taken.contains($0) && predicate(lines[$0]) }) {
                taken.insert(index)
                return lines[index]
            }
            if closed { throw ElectrumTestError("the server closed the connection; lines received: \(lines.map(\.text).suffix(5))") }
            guard ContinuousClock.now < deadline else {
                throw ElectrumTestTimeout(description: "nothing matching came within \(timeout); lines received: \(lines.map(\.text).suffix(5))")
            }
            await wait(until: deadline)
        }
    }

    /// The next line not taken yet, taken; nil once the connection closed and all were taken.
    func next(within timeout: Duration) async throws -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = lines.indices.first(where: { !taken.contains($0) }) {
                taken.insert(index)
                return lines[index].bytes
            }
            if closed { return nil }
            guard ContinuousClock.now < deadline else { throw ElectrumTestTimeout(description: "no line came within \(timeout)") }
            await wait(until: deadline)
        }
    }

    /// Whether the connection closed by `timeout` from now.
    func waitClosed(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !closed, ContinuousClock.now < deadline {
            await wait(until: deadline)
        }
        return closed
    }

    /// Waits for a new line, the close, or the deadline.
    private func wait(until deadline: ContinuousClock.Instant) async {
        let id = UUID()
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline)
            await self?.wake(id)
        }
        await withCheckedContinuation { continuation in waiters[id] = continuation }
        timer.cancel()
    }

    private func wake(_ id: UUID) {
        waiters.removeValue(forKey: id)?.resume()
    }

    private func wakeAll() {
        let parked = waiters.values
        waiters.removeAll()
        for waiter in parked { waiter.resume() }
    }
}
