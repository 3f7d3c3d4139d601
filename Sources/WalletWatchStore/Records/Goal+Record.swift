import GRDB
import WalletWatchCore

extension Goal: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "goals"

    public init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            name: try row.decode(forColumn: "name"),
            currency: try row.decode(forColumn: "currency"),
            target: try row.amount("target"),
            deadline: try row.decode(forColumn: "deadline"),
            status: try row.decode(forColumn: "status"),
            createdAt: try row.decode(forColumn: "created_at"),
            finishedAt: try row.decode(forColumn: "finished_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["currency"] = currency
        container["target"] = StoredAmount(target)
        container["deadline"] = deadline
        container["status"] = status
        container["created_at"] = createdAt
        container["finished_at"] = finishedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
