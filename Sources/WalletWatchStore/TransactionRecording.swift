import GRDB
import WalletWatchCore

/// The hot path of an ingest: transactions written through statements prepared once per
/// transaction, and what each asset's recording needs to remember between batches.
final class TransactionRecording {
    /// What is known about one asset during the pass.
    final class AssetState {
        /// False for an asset without any transaction before the pass: then no row needs
        /// looking up (a first ingest is inserts only).
        let hadRows: Bool
        /// True when the asset has allocations, so that Rule 1 may apply to it; otherwise the
        /// newly confirmed transactions need not be remembered at all.
        let tracksRule1: Bool
        /// Stored unconfirmed txids the source has not reported (yet) in this pass.
        var pendingNotReported: Set<String>

        init(hadRows: Bool, tracksRule1: Bool, pendingNotReported: Set<String>) {
            self.hadRows = hadRows
            self.tracksRule1 = tracksRule1
            self.pendingNotReported = pendingNotReported
        }
    }

    private var assets: [Int64: AssetState] = [:]
    private var insertStatement: PreparedStatement?
    private var lookupStatement: PreparedStatement?
    private var updateStatement: PreparedStatement?

    func asset(_ assetID: Int64, _ db: Database) throws -> AssetState {
        if let state = assets[assetID] { return state }
        let state = AssetState(
            hadRows: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM transactions WHERE asset_id = ?)", arguments: [assetID]) ?? false,
            tracksRule1: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM asset_allocations WHERE asset_id = ?)", arguments: [assetID]) ?? false,
            pendingNotReported: try String.fetchSet(db, sql: "SELECT txid FROM transactions WHERE asset_id = ? AND status = 'pending'",
                                                    arguments: [assetID]))
        assets[assetID] = state
        return state
    }

    /// Inserts a new transaction; false when one with that txid already exists for the asset.
    func insert(_ db: Database, _ observed: ObservedTransaction, assetID: Int64, now: Instant) throws -> Bool {
        let statement = try insertStatement ?? PreparedStatement(db, """
            INSERT INTO transactions (asset_id, txid, amount, type, status, direction, date, round, board_txid, fee,
                counterparty, note, first_seen_at, last_updated, rule1_applied_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, NULL, ?12, ?12, NULL)
            ON CONFLICT (asset_id, txid) DO NOTHING
            """)
        insertStatement = statement
        statement.bind(1, assetID)
        statement.bind(2, observed.txid)
        statement.bind(3, observed.amount)
        statement.bind(4, observed.type.rawValue)
        statement.bind(5, observed.status.rawValue)
        statement.bind(6, observed.direction.rawValue)
        statement.bind(7, observed.date ?? observed.estimatedDate ?? now)
        statement.bind(8, observed.round)
        statement.bind(9, observed.boardTxid)
        statement.bind(10, observed.fee)
        statement.bind(11, observed.counterparty)
        statement.bind(12, now)
        return try statement.execute() == 1
    }

    /// The stored row of (asset, txid), if any.
    func lookup(_ db: Database, assetID: Int64, txid: String) throws -> StoredTransaction? {
        let statement = try lookupStatement ?? PreparedStatement(db, """
            SELECT amount, type, status, date, fee, round, board_txid, counterparty, rule1_applied_at
            FROM transactions WHERE asset_id = ?1 AND txid = ?2
            """)
        lookupStatement = statement
        statement.bind(1, assetID)
        statement.bind(2, txid)
        return try statement.first { row in
            StoredTransaction(
                amount: row.int64(0), type: row.text(1) ?? "", status: row.text(2) ?? "", date: row.text(3) ?? "",
                fee: row.optionalInt64(4), round: row.optionalInt64(5), boardTxid: row.text(6), counterparty: row.text(7),
                autoAllocated: !row.isNull(8))
        }
    }

    /// Writes a changed transaction in place.
    func update(_ db: Database, _ change: TransactionChange, txid: String, assetID: Int64, now: Instant) throws {
        let statement = try updateStatement ?? PreparedStatement(db, """
            UPDATE transactions SET amount = ?1, direction = ?2, type = ?3, status = ?4, date = ?5, fee = ?6, round = ?7,
                board_txid = ?8, counterparty = ?9, last_updated = ?10
            WHERE asset_id = ?11 AND txid = ?12
            """)
        updateStatement = statement
        let observed = change.observed
        statement.bind(1, observed.amount)
        statement.bind(2, observed.direction.rawValue)
        statement.bind(3, observed.type.rawValue)
        statement.bind(4, observed.status.rawValue)
        statement.bind(5, change.date)
        statement.bind(6, observed.fee)
        statement.bind(7, observed.round)
        statement.bind(8, observed.boardTxid)
        statement.bind(9, change.counterparty)
        statement.bind(10, now)
        statement.bind(11, assetID)
        statement.bind(12, txid)
        try statement.execute()
    }
}

/// A transaction as stored, with the fields an ingest compares.
struct StoredTransaction {
    let amount: Int64
    let type: String
    let status: String
    /// ISO 8601 text, as stored.
    let date: String
    let fee: Int64?
    let round: Int64?
    let boardTxid: String?
    let counterparty: String?
    let autoAllocated: Bool

    /// What to write when the source reports `observed` differently; nil when nothing changed.
    /// The source's date wins when it gives one; otherwise the first stored date stays (an
    /// estimate never rewrites a row).
    func change(to observed: ObservedTransaction) -> TransactionChange? {
        let storedDate = Instant(iso8601: date)
        let newDate = observed.date ?? storedDate ?? Instant(millisecondsSinceEpoch: 0)
        let newCounterparty = observed.counterparty ?? counterparty
        let sameKind = observed.amount == amount && observed.type.rawValue == type && observed.status.rawValue == status
        let sameTime = newDate == storedDate
        let sameDetails = observed.fee == fee && observed.round == round && observed.boardTxid == boardTxid
            && newCounterparty == counterparty
        guard !(sameKind && sameTime && sameDetails) else { return nil }
        return TransactionChange(observed: observed, date: newDate, counterparty: newCounterparty,
                                 becameConfirmed: status != TransactionStatus.confirmed.rawValue && observed.status == .confirmed && !autoAllocated)
    }
}

/// A changed transaction to write.
struct TransactionChange {
    let observed: ObservedTransaction
    let date: Instant
    let counterparty: String?
    /// It was not confirmed before (and Rule 1 has not been applied to it).
    let becameConfirmed: Bool
}
