import WalletWatchCore

/// The JSON shapes of `walletwatch notify` (CLI.md, "Additions").
public enum NotificationDocument {
    /// `notify log --json`: `[{"id", "event", "target", "status", "attempts", "created_at",
    /// "delivered_at", "last_error"}]`.
    public static func log(_ deliveries: [NotificationDelivery]) -> JSONValue {
        .array(deliveries.map(delivery))
    }

    /// One delivery, as `notify log --json` lists it.
    public static func delivery(_ delivery: NotificationDelivery) -> JSONValue {
        .object([
            "id": .string(delivery.id),
            "event": .string(delivery.event),
            "target": .string(delivery.target),
            "status": .string(delivery.status.rawValue),
            "attempts": .int(Int64(delivery.attempts)),
            "created_at": .string(delivery.createdAt.iso8601),
            "delivered_at": .string(delivery.deliveredAt?.iso8601),
            "last_error": .string(delivery.lastError),
        ])
    }
}
