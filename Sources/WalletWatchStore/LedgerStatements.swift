import GRDB
import WalletWatchCore

/// The hot path of an ingest: ledger rows read and written through statements prepared once
/// per database access (a read or a write transaction) and run with values bound through
/// SQLite's C API. A million rows through GRDB's record methods would spend most of their
/// time building SQL and boxing values.
final class LedgerStatements {
    private let db: Database
    private var lookupStatement: PreparedStatement?
    private var insertStatement: PreparedStatement?
    private var updateStatement: PreparedStatement?
    private var stageUpdateStatement: PreparedStatement?

    init(_ db: Database) { self.db = db }

    /// The stored row of (asset, txid), if any, staged or published. Reads the `ledger` table
    /// itself: a pass compares with the rows it staged as well.
    func lookup(assetID: Int64, txid: String) throws -> StoredTransaction? {
        let statement = try lookupStatement ?? PreparedStatement(db, """
            SELECT amount, type, status, date, fee, round, board_txid, counterparty, rule1_applied_at
            FROM ledger WHERE txid = ?1 AND asset_id = ?2
            """)
        lookupStatement = statement
        statement.bind(1, txid)
        statement.bind(2, assetID)
        return try statement.first { row in
            StoredTransaction(
                amount: try row.amount(0), type: row.text(1) ?? "", status: row.text(2) ?? "", date: row.text(3) ?? "",
                fee: try row.optionalAmount(4), round: row.optionalInt64(5), boardTxid: row.text(6), counterparty: row.text(7),
                autoAllocated: !row.isNull(8))
        }
    }

    /// The change `pass` staged for (asset, txid), as the row will read once published; nil
    /// when it staged none.
    func stagedUpdate(pass: Int64, assetID: Int64, txid: String) throws -> StoredTransaction? {
        try Row.fetchOne(db, sql: """
            SELECT amount, type, status, date, fee, round, board_txid, counterparty FROM staged_updates
            WHERE pass = ? AND asset_id = ? AND txid = ?
            """, arguments: [pass, assetID, txid]).map { row in
            StoredTransaction(amount: try row.amount("amount"), type: row["type"], status: row["status"], date: row["date"], fee: try row.optionalAmount("fee"),
                              round: row["round"], boardTxid: row["board_txid"], counterparty: row["counterparty"], autoAllocated: false)
        }
    }

    /// After an insert found (asset, txid) taken: the answer listed the txid twice. The same
    /// contents count once; different ones refuse the pass (SPEC.md section 24).
    func ensureRepeatMatches(_ observed: ObservedTransaction, assetID: Int64, source: String) throws {
        guard let first = try lookup(assetID: assetID, txid: observed.txid), first.change(to: observed) != nil else { return }
        throw RepeatedTransaction(source: source, stored: first, then: observed)
    }

    /// Inserts a new transaction, invisible to readers until `pass` is published (visible at
    /// once when `pass` is nil); false when the asset already has that txid.
    func insert(_ observed: ObservedTransaction, assetID: Int64, now: Instant, pass: Int64?) throws -> Bool {
        let statement = try insertStatement ?? PreparedStatement(db, """
            INSERT INTO ledger (txid, asset_id, amount, type, status, direction, date, round, board_txid, fee,
                counterparty, note, first_seen_at, last_updated, rule1_applied_at, pass)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, NULL, ?12, ?12, NULL, ?13)
            ON CONFLICT (txid, asset_id) DO NOTHING
            """)
        insertStatement = statement
        statement.bind(1, observed.txid)
        statement.bind(2, assetID)
        statement.bind(3, amount: observed.amount)
        statement.bind(4, observed.type.rawValue)
        statement.bind(5, observed.status.rawValue)
        statement.bind(6, observed.direction.rawValue)
        statement.bind(7, observed.date ?? observed.estimatedDate ?? now)
        statement.bind(8, observed.round)
        statement.bind(9, observed.boardTxid)
        statement.bind(10, amount: observed.fee)
        statement.bind(11, observed.counterparty)
        statement.bind(12, now)
        statement.bind(13, pass)
        return try statement.execute() == 1
    }

    /// Writes a changed transaction in place.
    func update(_ change: TransactionChange, assetID: Int64, now: Instant) throws {
        let statement = try updateStatement ?? PreparedStatement(db, """
            UPDATE ledger SET amount = ?1, direction = ?2, type = ?3, status = ?4, date = ?5, fee = ?6, round = ?7,
                board_txid = ?8, counterparty = ?9, last_updated = ?10
            WHERE txid = ?11 AND asset_id = ?12
            """)
        updateStatement = statement
        bindChange(statement, change)
        statement.bind(10, now)
        statement.bind(11, change.observed.txid)
        statement.bind(12, assetID)
        try statement.execute()
    }

    /// Keeps a change to an existing row for when `pass` publishes (``LedgerStatements/applyStagedUpdates(pass:now:)``):
    /// readers keep seeing the row as it was until then.
    func stageUpdate(_ change: TransactionChange, assetID: Int64, pass: Int64) throws {
        let statement = try stageUpdateStatement ?? PreparedStatement(db, """
            INSERT INTO staged_updates (amount, direction, type, status, date, fee, round, board_txid, counterparty, pass, txid, asset_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            ON CONFLICT (pass, asset_id, txid) DO UPDATE SET amount = excluded.amount, direction = excluded.direction,
                type = excluded.type, status = excluded.status, date = excluded.date, fee = excluded.fee, round = excluded.round,
                board_txid = excluded.board_txid, counterparty = excluded.counterparty
            """)
        stageUpdateStatement = statement
        bindChange(statement, change)
        statement.bind(10, pass)
        statement.bind(11, change.observed.txid)
        statement.bind(12, assetID)
        try statement.execute()
    }

    /// Writes the changes `pass` staged, in one statement, and forgets them.
    func applyStagedUpdates(pass: Int64, now: Instant) throws {
        try db.execute(sql: """
            UPDATE ledger SET amount = s.amount, direction = s.direction, type = s.type, status = s.status, date = s.date,
                fee = s.fee, round = s.round, board_txid = s.board_txid, counterparty = s.counterparty, last_updated = ?
            FROM staged_updates s
            WHERE s.pass = ? AND ledger.txid = s.txid AND ledger.asset_id = s.asset_id
            """, arguments: [now, pass])
        try db.execute(sql: "DELETE FROM staged_updates WHERE pass = ?", arguments: [pass])
    }

    /// Binds parameters 1 to 9 of an update: the observed values, the kept date and counterparty.
    private func bindChange(_ statement: PreparedStatement, _ change: TransactionChange) {
        let observed = change.observed
        statement.bind(1, amount: observed.amount)
        statement.bind(2, observed.direction.rawValue)
        statement.bind(3, observed.type.rawValue)
        statement.bind(4, observed.status.rawValue)
        statement.bind(5, change.date)
        statement.bind(6, amount: observed.fee)
        statement.bind(7, observed.round)
        statement.bind(8, observed.boardTxid)
        statement.bind(9, change.counterparty)
    }
}
