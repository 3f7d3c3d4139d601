import Foundation
import GRDB
import WalletWatchCore

extension Tag: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "tags"

    public init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: "id"),
            name: try row.decode(forColumn: "name"),
            colorHex: try row.decode(forColumn: "color_hex"),
            emoji: try row.decode(forColumn: "emoji"),
            isActive: try row.decode(forColumn: "is_active"),
            createdAt: try row.decode(forColumn: "created_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.uuidString.lowercased()
        container["name"] = name
        container["color_hex"] = colorHex
        container["emoji"] = emoji
        container["is_active"] = isActive
        container["created_at"] = createdAt
    }
}
