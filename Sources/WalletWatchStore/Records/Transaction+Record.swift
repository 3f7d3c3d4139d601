import GRDB
import WalletWatchCore

extension Transaction: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "transactions"

    public init(row: Row) throws {
        self.init(
            assetID: try row.decode(forColumn: "asset_id"),
            txid: try row.decode(forColumn: "txid"),
            amount: try row.decode(forColumn: "amount"),
            type: try row.decode(forColumn: "type"),
            status: try row.decode(forColumn: "status"),
            date: try row.decode(forColumn: "date"),
            round: try row.decode(forColumn: "round"),
            boardTxid: try row.decode(forColumn: "board_txid"),
            fee: try row.decode(forColumn: "fee"),
            counterparty: try row.decode(forColumn: "counterparty"),
            note: try row.decode(forColumn: "note"),
            firstSeenAt: try row.decode(forColumn: "first_seen_at"),
            lastUpdated: try row.decode(forColumn: "last_updated"),
            rule1AppliedAt: try row.decode(forColumn: "rule1_applied_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["asset_id"] = assetID
        container["txid"] = txid
        container["amount"] = amount
        container["type"] = type
        container["status"] = status
        container["direction"] = direction
        container["date"] = date
        container["round"] = round
        container["board_txid"] = boardTxid
        container["fee"] = fee
        container["counterparty"] = counterparty
        container["note"] = note
        container["first_seen_at"] = firstSeenAt
        container["last_updated"] = lastUpdated
        container["rule1_applied_at"] = rule1AppliedAt
    }
}
