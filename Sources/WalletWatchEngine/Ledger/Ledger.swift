import WalletWatchCore
import WalletWatchStore

/// Assets and their transactions: manual assets and their entries (SPEC.md section 4, "Manual
/// assets"), and the listings every view shows.
public struct Ledger: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let valuer: TransactionValuer

    init(database: AppDatabase, clock: WallClock, valuer: TransactionValuer) {
        self.database = database
        self.clock = clock
        self.valuer = valuer
    }

    /// Creates a manual asset.
    public func addManualAsset(name: String, currency: Currency) throws -> Asset {
        try database.createManualAsset(name: name, currency: currency, now: clock.now)
    }

    /// Renames an asset or changes its currency (locked once it has transactions).
    public func editAsset(named name: String, newName: String?, newCurrency: Currency?) throws -> Asset {
        try database.editAsset(named: name, newName: newName, newCurrency: newCurrency)
    }

    /// Records a manual transaction; `amount` is in the asset's currency as the user wrote it.
    public func addTransaction(asset: String, amount: String, date: Instant?, note: String?) throws -> TransactionListing {
        try database.addManualTransaction(assetName: asset, amount: amount, date: date, note: note, now: clock.now)
    }

    /// Edits a manual transaction.
    public func editTransaction(txid: String, edit: ManualTransactionEdit) throws -> TransactionListing {
        try database.editManualTransaction(txid: txid, edit: edit, now: clock.now)
    }

    /// Deletes a manual transaction.
    public func deleteTransaction(txid: String) throws -> TransactionListing {
        try database.deleteManualTransaction(txid: txid, now: clock.now)
    }

    /// Transactions as `tx list` filters them, newest first, each with its value in the
    /// display currency at its date.
    public func transactions(_ filter: TransactionFilter = TransactionFilter()) throws -> [TransactionListing] {
        try valuer.valued(database.transactions(filter))
    }

    /// The transactions with `txid` (one per asset that has it: a transfer between two watched
    /// wallets), each with its value in the display currency at its date.
    public func transactions(txid: String) throws -> [TransactionListing] {
        try valuer.valued(database.transactions(txid: txid))
    }

    /// Every asset with its balance and targets.
    public func assetOverviews() throws -> [AssetOverview] {
        try database.assetOverviews()
    }

    /// One asset with its balance and targets.
    public func assetOverview(named name: String) throws -> AssetOverview {
        try database.assetOverview(named: name)
    }
}
