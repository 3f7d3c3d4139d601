import WalletWatchCore
import WalletWatchStore

extension Engine {
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
}

extension Engine {
    /// Sets an asset's targets for goals (`allocate ASSET GOAL=AMOUNT...`).
    public func allocate(asset: String, assignments: [(goal: String, amount: String)]) throws -> AssetOverview {
        try database.allocate(assetName: asset, assignments: assignments, now: clock.now)
    }
}
