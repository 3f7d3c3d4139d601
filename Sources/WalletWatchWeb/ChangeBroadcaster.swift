import Synchronization
import WalletWatchEngine

/// One watcher of the database shared by every open event stream: it starts with the first
/// subscriber and fans each change out to all of them. Every subscriber starts with the current
/// version, so a page that reconnects (a phone waking up) catches up on what it missed.
final class ChangeBroadcaster: Sendable {
    enum Event: Sendable {
        case change(Int64)
        case keepAlive
    }

    private struct State {
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var next = 0
        var watcher: Task<Void, Never>?
        /// The last version seen, for subscribers that join later.
        var latest: Int64?
    }

    private let engine: Engine
    /// How often a keep-alive goes to every stream.
    private let keepAlive: Duration
    private let state = Mutex(State())

    init(engine: Engine, keepAlive: Duration = .seconds(15)) {
        self.engine = engine
        self.keepAlive = keepAlive
    }

    /// One subscriber's events, and a way to end them early.
    struct Subscription: Sendable {
        let events: AsyncStream<Event>
        let end: @Sendable () -> Void
    }

    /// A stream of changes (starting with the current version) and keep-alives.
    func subscribe() -> Subscription {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = state.withLock { state -> Int in
            state.next += 1
            state.subscribers[state.next] = continuation
            if state.watcher == nil { state.watcher = startWatching() }
            if let latest = state.latest { continuation.yield(.change(latest)) }
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return Subscription(events: stream, end: { continuation.finish() })
    }

    private func startWatching() -> Task<Void, Never> {
        let changes = engine.liveView.changes()
        let keepAlive = self.keepAlive
        return Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await version in changes { self?.broadcast(.change(version)) }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: keepAlive)
                        self?.broadcast(.keepAlive)
                    }
                }
            }
        }
    }

    private func broadcast(_ event: Event) {
        let subscribers = state.withLock { state in
            if case .change(let version) = event { state.latest = version }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(event) }
    }

    deinit {
        state.withLock { $0.watcher?.cancel() }
    }
}
