import GRDB
import WalletWatchCore

extension PlanFrequency: DatabaseValueConvertible {}
extension PlanMethod: DatabaseValueConvertible {}
extension OccurrenceStatus: DatabaseValueConvertible {}

extension SavingPlan: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "saving_plans"

    public init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            name: try row.decode(forColumn: "name"),
            goalID: try row.decode(forColumn: "goal_id"),
            assetID: try row.decode(forColumn: "asset_id"),
            amount: try row.amount("amount"),
            currency: try row.decode(forColumn: "currency"),
            every: try row.decode(forColumn: "every"),
            start: try row.decode(forColumn: "start"),
            method: try row.decode(forColumn: "method"),
            createdAt: try row.decode(forColumn: "created_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["goal_id"] = goalID
        container["asset_id"] = assetID
        container["amount"] = StoredAmount(amount)
        container["currency"] = currency
        container["every"] = every
        container["start"] = start
        container["method"] = method
        container["created_at"] = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
