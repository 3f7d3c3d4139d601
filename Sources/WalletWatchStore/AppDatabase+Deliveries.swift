import GRDB
import WalletWatchCore

/// The next delivery of one target: its event as stored, and how its earlier attempts went.
public struct PendingDelivery: Sendable, Hashable {
    /// The event's place in the outbox; a target's deliveries go out in this order.
    public let seq: Int64
    /// The `[[notify]]` entry it goes to.
    public let target: String
    /// The event's id (`X-Walletwatch-Delivery`).
    public let id: String
    /// The event's name.
    public let event: String
    /// When the event happened.
    public let at: Instant
    /// The event's data as the JSON text it was written with.
    public let data: String
    /// Attempts made so far.
    public let attempts: Int
    /// The first attempt's time: retries stop 24 hours after it.
    public let firstAttemptAt: Instant?
    /// Not to be tried before this (nil: at once).
    public let nextAttemptAt: Instant?
}

extension AppDatabase {
    /// The oldest pending delivery of `target`: the only one that may go out, since a target's
    /// deliveries keep the events' order.
    public func nextDelivery(target: String) async throws -> PendingDelivery? {
        try await read { db in
            try Row.fetchOne(db, sql: """
                SELECT d.event_seq, d.target, e.id, e.event, e.at, e.data, d.attempts, d.first_attempt_at, d.next_attempt_at
                FROM notify_deliveries d JOIN notify_events e ON e.seq = d.event_seq
                WHERE d.target = ? AND d.status = 'pending' ORDER BY d.event_seq LIMIT 1
                """, arguments: [target]).map { row in
                PendingDelivery(seq: row[0], target: row[1], id: row[2], event: row[3], at: try row.decode(forColumn: "at"), data: row[5],
                                attempts: row[6], firstAttemptAt: row[7], nextAttemptAt: row[8])
            }
        }
    }

    /// Records that `delivery` was acknowledged at `now`; it is never sent again.
    public func markDelivered(_ delivery: PendingDelivery, at now: Instant) async throws {
        _ = try await write { db in
            try db.execute(sql: """
                UPDATE notify_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = ?,
                    first_attempt_at = COALESCE(first_attempt_at, ?), next_attempt_at = NULL
                WHERE target = ? AND event_seq = ? AND status = 'pending'
                """, arguments: [now, now, delivery.target, delivery.seq])
        }
    }

    /// Records a failed attempt at `now` with its one-line reason: retried at `retryAt`, or
    /// given up (`failed`) when it is nil.
    public func markAttemptFailed(_ delivery: PendingDelivery, at now: Instant, error: String, retryAt: Instant?) async throws {
        _ = try await write { db in
            try db.execute(sql: """
                UPDATE notify_deliveries SET status = ?, attempts = attempts + 1, last_error = ?,
                    first_attempt_at = COALESCE(first_attempt_at, ?), next_attempt_at = ?
                WHERE target = ? AND event_seq = ? AND status = 'pending'
                """, arguments: [retryAt == nil ? "failed" : "pending", error, now, retryAt, delivery.target, delivery.seq])
        }
    }

    /// Gives up the pending deliveries of targets other than `targets` (entries taken out of
    /// the config): nobody will send them. Returns how many.
    public func failDeliveries(notTo targets: Set<String>, reason: String) async throws -> Int {
        try await write { db in
            let orphaned = try String.fetchSet(db, sql: "SELECT DISTINCT target FROM notify_deliveries WHERE status = 'pending'")
                .subtracting(targets)
            var count = 0
            for target in orphaned.sorted() {
                try db.execute(sql: "UPDATE notify_deliveries SET status = 'failed', last_error = ? WHERE target = ? AND status = 'pending'",
                               arguments: [reason, target])
                count += db.changesCount
            }
            return count
        }
    }

    /// Records a `notify test` event sent to `target` at `now` and how it went: it is never
    /// queued, so the daemon does not send it again.
    public func recordTest(_ event: NotificationEvent, id: String, target: String, delivered: Bool, error: String?, at now: Instant) throws {
        try write { db in
            try db.execute(sql: "INSERT INTO notify_events (id, event, at, data, created_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [id, event.name.rawValue, event.at, event.data.compact, now])
            try db.execute(sql: """
                INSERT INTO notify_deliveries (event_seq, target, status, attempts, first_attempt_at, delivered_at, last_error)
                VALUES (?, ?, ?, 1, ?, ?, ?)
                """, arguments: [db.lastInsertedRowID, target, delivered ? "delivered" : "failed", now, delivered ? now : nil, error])
        }
    }

    /// Every delivery, oldest event first (targets by name within one event); only the failed
    /// ones with `failedOnly`.
    public func notificationLog(failedOnly: Bool) throws -> [NotificationDelivery] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT e.id, e.event, d.target, d.status, d.attempts, e.created_at, d.delivered_at, d.last_error, d.next_attempt_at
                FROM notify_deliveries d JOIN notify_events e ON e.seq = d.event_seq
                \(failedOnly ? "WHERE d.status = 'failed'" : "")
                ORDER BY d.event_seq, d.target
                """).map { row in
                let status: String = row[3]
                guard let parsed = NotificationDelivery.Status(rawValue: status) else { throw StoreError.corrupt("delivery status '\(status)'") }
                return NotificationDelivery(id: row[0], event: row[1], target: row[2], status: parsed, attempts: row[4],
                                            createdAt: try row.decode(forColumn: "created_at"), deliveredAt: row[6], lastError: row[7],
                                            nextAttemptAt: row[8])
            }
        }
    }
}
