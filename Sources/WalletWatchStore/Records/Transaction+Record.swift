import GRDB
import WalletWatchCore

/// Transactions are read through the `transactions` view, which leaves out the rows of ingest
/// passes that are not published yet (Schema.version4); they are written through ``LedgerRow``.
extension Transaction: FetchableRecord, TableRecord {
    public static let databaseTableName = "transactions"

    public init(row: Row) throws {
        self.init(
            assetID: try row.decode(forColumn: "asset_id"),
            txid: try row.decode(forColumn: "txid"),
            amount: try row.amount("amount"),
            type: try row.decode(forColumn: "type"),
            status: try row.decode(forColumn: "status"),
            date: try row.decode(forColumn: "date"),
            round: try row.decode(forColumn: "round"),
            boardTxid: try row.decode(forColumn: "board_txid"),
            fee: try row.optionalAmount("fee"),
            counterparty: try row.decode(forColumn: "counterparty"),
            note: try row.decode(forColumn: "note"),
            firstSeenAt: try row.decode(forColumn: "first_seen_at"),
            lastUpdated: try row.decode(forColumn: "last_updated"),
            rule1AppliedAt: try row.decode(forColumn: "rule1_applied_at"))
    }
}

/// A transaction as written: the `ledger` table behind the `transactions` view. Rows written
/// here outside an ingest pass are visible at once (`pass` stays null). The ledger's key is
/// its rowid; a transaction is found by its unique (txid, asset_id), hence ``updateStored(_:)``
/// and ``deleteStored(_:)`` rather than GRDB's, which go by primary key.
struct LedgerRow: PersistableRecord {
    static let databaseTableName = "ledger"

    let transaction: Transaction

    func encode(to container: inout PersistenceContainer) {
        container["asset_id"] = transaction.assetID
        container["txid"] = transaction.txid
        container["amount"] = StoredAmount(transaction.amount)
        container["type"] = transaction.type
        container["status"] = transaction.status
        container["direction"] = transaction.direction
        container["date"] = transaction.date
        container["round"] = transaction.round
        container["board_txid"] = transaction.boardTxid
        container["fee"] = transaction.fee.map(StoredAmount.init)
        container["counterparty"] = transaction.counterparty
        container["note"] = transaction.note
        container["first_seen_at"] = transaction.firstSeenAt
        container["last_updated"] = transaction.lastUpdated
        container["rule1_applied_at"] = transaction.rule1AppliedAt
    }

    /// Writes the transaction's changeable fields over its stored row.
    func updateStored(_ db: Database) throws {
        try db.execute(sql: """
            UPDATE ledger SET amount = ?, direction = ?, date = ?, note = ?, last_updated = ?, status = ?, rule1_applied_at = ?
            WHERE txid = ? AND asset_id = ?
            """, arguments: [StoredAmount(transaction.amount), transaction.direction, transaction.date, transaction.note, transaction.lastUpdated,
                             transaction.status, transaction.rule1AppliedAt, transaction.txid, transaction.assetID])
    }

    /// Deletes the transaction's row.
    func deleteStored(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM ledger WHERE txid = ? AND asset_id = ?", arguments: [transaction.txid, transaction.assetID])
    }
}
