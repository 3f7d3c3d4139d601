import GRDB
import WalletWatchCore

/// The current target of one asset for one goal, in the asset's minor units (AssetAllocation).
public struct AllocationRow: Hashable, Sendable {
    public var assetID: Int64
    public var goalID: Int64
    public var amount: Int128
    public var updatedAt: Instant
}

/// One timestamped snapshot of a target (AllocationHistory). Append-only.
public struct AllocationHistoryRow: Hashable, Sendable {
    public var id: Int64?
    public var assetID: Int64
    public var goalID: Int64
    public var amount: Int128
    /// When the target took effect.
    public var timestamp: Instant
    /// When the row was written; breaks ties between rows with the same timestamp.
    public var createdAt: Instant
    public var reason: AllocationReason
    public var txid: String?
}

extension AllocationRow: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "asset_allocations"

    public init(row: Row) throws {
        assetID = try row.decode(forColumn: "asset_id")
        goalID = try row.decode(forColumn: "goal_id")
        amount = try row.amount("amount")
        updatedAt = try row.decode(forColumn: "updated_at")
    }

    public func encode(to container: inout PersistenceContainer) {
        container["asset_id"] = assetID
        container["goal_id"] = goalID
        container["amount"] = StoredAmount(amount)
        container["updated_at"] = updatedAt
    }
}

extension AllocationHistoryRow: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "allocation_history"

    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        assetID = try row.decode(forColumn: "asset_id")
        goalID = try row.decode(forColumn: "goal_id")
        amount = try row.amount("amount")
        timestamp = try row.decode(forColumn: "timestamp")
        createdAt = try row.decode(forColumn: "created_at")
        reason = try row.decode(forColumn: "reason")
        txid = try row.decode(forColumn: "txid")
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["asset_id"] = assetID
        container["goal_id"] = goalID
        container["amount"] = StoredAmount(amount)
        container["timestamp"] = timestamp
        container["created_at"] = createdAt
        container["month_label"] = timestamp.monthLabel
        container["reason"] = reason
        container["txid"] = txid
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension AllocationReason: DatabaseValueConvertible {}
