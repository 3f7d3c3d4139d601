import Foundation
import GRDB
import WalletWatchCore

/// The notifications outbox (SPEC.md section 18): events are written here by the transaction
/// that causes them, and the daemon delivers them afterwards, never inside a transaction.
extension AppDatabase {
    /// Writes `event` to the outbox inside the caller's write transaction `db`, with one pending
    /// delivery for each target subscribed to its name. Nothing is written when no target is.
    ///
    /// Call it from the write that makes the change the event reports (a pass's publication,
    /// the month cycle, a saving plan's due date), so that the event commits or rolls back with
    /// it. Returns the event's id (its `X-Walletwatch-Delivery`), or nil when nobody listens.
    @discardableResult
    public static func enqueue(_ event: NotificationEvent, in db: Database) throws -> String? {
        let targets = try String.fetchAll(db, sql: "SELECT target FROM notify_subscriptions WHERE event = ? ORDER BY target",
                                          arguments: [event.name.rawValue])
        guard !targets.isEmpty else { return nil }
        return try insert(event, for: targets, in: db)
    }

    /// Writes `event` for `target` alone, whatever it subscribed to (`notify test`).
    static func enqueue(_ event: NotificationEvent, only target: String, in db: Database) throws -> String {
        try insert(event, for: [target], in: db)
    }

    private static func insert(_ event: NotificationEvent, for targets: [String], in db: Database) throws -> String {
        let id = UUID().uuidString.lowercased()
        try db.execute(sql: "INSERT INTO notify_events (id, event, at, data, created_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [id, event.name.rawValue, event.at, event.data.compact, event.at])
        let seq = db.lastInsertedRowID
        for target in targets {
            try db.execute(sql: "INSERT INTO notify_deliveries (event_seq, target) VALUES (?, ?)", arguments: [seq, target])
        }
        return id
    }

    /// Makes the stored subscriptions exactly the config's `[[notify]]` entries (target name ->
    /// the events it wants), so that ``enqueue(_:in:)`` can fan an event out inside any write,
    /// whichever command makes it. Writes only when they differ. Deliveries already enqueued
    /// stay as they are (the daemon gives up those of a target no longer configured).
    public func setNotifyTargets(_ targets: [String: Set<NotificationEvent.Name>]) throws {
        let wanted = Set(targets.flatMap { target, events in events.map { Subscription(target: target, event: $0.rawValue) } })
        let stored = try read { db in
            Set(try Row.fetchAll(db, sql: "SELECT target, event FROM notify_subscriptions").map { Subscription(target: $0[0], event: $0[1]) })
        }
        guard stored != wanted else { return }
        try write { db in
            try db.execute(sql: "DELETE FROM notify_subscriptions")
            for subscription in wanted.sorted(by: { ($0.target, $0.event) < ($1.target, $1.event) }) {
                try db.execute(sql: "INSERT INTO notify_subscriptions (target, event) VALUES (?, ?)",
                               arguments: [subscription.target, subscription.event])
            }
        }
    }

    private struct Subscription: Hashable, Sendable {
        let target: String
        let event: String
    }
}
