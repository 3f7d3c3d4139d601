import Foundation
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

extension Notifier {
    /// The daemon's delivery: one loop per configured target, so that a slow, failing or
    /// unreachable target holds up only its own deliveries, until `stopping` says so or the
    /// task is cancelled (which also cuts off an attempt in flight). `pause` waits up to the
    /// given time (and returns early on shutdown); the loops may share it. Deliveries left pending for targets no
    /// longer in the config are marked failed first: nobody would send them.
    public func run(stopping: @escaping @Sendable () -> Bool, pause: @escaping @Sendable (Duration) async -> Void) async {
        do {
            let given = try await database.failDeliveries(notTo: Set(config.notify.map(\.name)), reason: "the target is no longer in the config")
            if given > 0 { logger.notice("gave up deliveries to targets no longer configured", metadata: ["deliveries": "\(given)"]) }
        } catch {
            logger.warning("could not give up the deliveries of removed targets", metadata: ["error": "\(Self.describe(error))"])
        }
        await withDiscardingTaskGroup { group in
            for target in config.notify {
                group.addTask {
                    while !stopping() {
                        if await !deliverNext(to: target) { await pause(timing.poll) }
                    }
                }
            }
        }
    }

    /// Sends the oldest pending delivery of `target` when it is due and records how it went.
    /// Returns false when there was nothing to do yet (nothing pending, or a retry not due).
    @discardableResult
    public func deliverNext(to target: NotifyConfig) async -> Bool {
        let delivery: PendingDelivery
        do {
            guard let next = try await database.nextDelivery(target: target.name) else { return false }
            if let due = next.nextAttemptAt, due > clock.now { return false }
            delivery = next
        } catch {
            logger.warning("could not read the outbox", metadata: ["target": "\(target.name)", "error": "\(Self.describe(error))"])
            return false
        }
        let outcome = await attempt(delivery, to: target)
        // Cut off by shutdown: not an attempt the receiver refused. It stays as it was and is
        // sent again, with the same id, when the daemon runs next.
        if Task.isCancelled && !outcome.isDelivered { return false }
        let now = clock.now
        do {
            if outcome.isDelivered {
                try await database.markDelivered(delivery, at: now)
                logger.info("notification delivered", metadata: ["target": "\(target.name)", "event": "\(delivery.event)", "id": "\(delivery.id)"])
            } else {
                let problem = outcome.problem ?? "not delivered"
                let retryAt = timing.retryAt(afterAttempts: delivery.attempts + 1, failedAt: now, firstAttempt: delivery.firstAttemptAt ?? now)
                try await database.markAttemptFailed(delivery, at: now, error: problem, retryAt: retryAt)
                logger.notice(retryAt == nil ? "notification failed; giving up" : "notification not delivered; retrying later", metadata: [
                    "target": "\(target.name)", "event": "\(delivery.event)", "id": "\(delivery.id)", "error": "\(problem)",
                    "retry_at": "\(retryAt?.iso8601 ?? "never")",
                ])
            }
        } catch {
            // Not recorded: the delivery stays as it was and is sent again (the receiver can
            // drop the duplicate by its X-Walletwatch-Delivery id).
            logger.warning("could not record a delivery", metadata: ["target": "\(target.name)", "error": "\(Self.describe(error))"])
            return false
        }
        return true
    }

    /// One attempt: the outcome, or why it could not be made (an unreadable secret counts as a
    /// failed attempt, retried like one: the file may be fixed meanwhile).
    func attempt(_ delivery: PendingDelivery, to target: NotifyConfig) async -> WebhookOutcome {
        let secret: WebhookSecret?
        do {
            secret = try self.secret(of: target)
        } catch {
            return .unreachable(problem: Self.describe(error))
        }
        let message = WebhookMessage(id: delivery.id, event: delivery.event, at: delivery.at, data: delivery.data)
        return await sender.send(message, to: target.url, secret: secret, route: route(of: target))
    }

    /// A target's route: its own proxy, else the client's (`[http] proxy`).
    func route(of target: NotifyConfig) -> NetworkRoute? {
        target.proxy.map { config.http.routing.route(own: $0) }
    }

    /// Sends a `test` event to the target called `name` now, outside the outbox's order, and
    /// records it in the log as delivered or failed (never retried).
    public func test(_ name: String) async throws -> NotificationDelivery {
        let target = try target(named: name)
        let now = clock.now
        let id = UUID().uuidString.lowercased()
        let event = NotificationEvent(.test, at: now, data: .object([
            "target": .string(target.name), "message": "a test event from walletwatch notify test",
        ]))
        let secret = try self.secret(of: target)
        let outcome = await sender.send(WebhookMessage(id: id, event: event.name.rawValue, at: now, data: event.data.compact), to: target.url,
                                        secret: secret, route: route(of: target))
        try database.recordTest(event, id: id, target: target.name, delivered: outcome.isDelivered, error: outcome.problem, at: clock.now)
        return NotificationDelivery(id: id, event: event.name.rawValue, target: target.name, status: outcome.isDelivered ? .delivered : .failed,
                                    attempts: 1, createdAt: now, deliveredAt: outcome.isDelivered ? clock.now : nil, lastError: outcome.problem)
    }

    static func describe(_ error: any Error) -> String {
        (error as? any Classified)?.description ?? String(describing: error)
    }
}
