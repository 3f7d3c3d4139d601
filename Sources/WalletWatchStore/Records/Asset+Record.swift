import GRDB
import WalletWatchCore

extension Asset: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "assets"

    public init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            name: try row.decode(forColumn: "name"),
            currency: try row.decode(forColumn: "currency"),
            kind: try row.decode(forColumn: "kind"),
            source: try row.decode(forColumn: "source"),
            createdAt: try row.decode(forColumn: "created_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["currency"] = currency
        container["kind"] = kind
        container["source"] = source
        container["created_at"] = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
