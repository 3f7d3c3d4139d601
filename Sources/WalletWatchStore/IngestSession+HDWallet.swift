import GRDB
import WalletWatchCore

/// The writes of an HD wallet's pass, in its ingest transaction: its addresses, and its
/// transactions with the payments to reserved addresses that Rule 1b allocates.
extension IngestSession {
    /// Makes the source's stored addresses exactly `addresses`: rows of addresses no longer
    /// watched (a listed address taken out of the config, a wallet whose keys changed) are
    /// deleted, and of the rest only those in `changed` are written.
    public func saveWalletAddresses(_ addresses: [WalletAddress], changed: Set<String>) throws {
        let watched = Set(addresses.map(\.address))
        let stored = try String.fetchAll(db, sql: "SELECT address FROM derived_addresses WHERE source = ?", arguments: [source])
        for address in stored where !watched.contains(address) {
            try db.execute(sql: "DELETE FROM derived_addresses WHERE source = ? AND address = ?", arguments: [source, address])
        }
        for address in addresses where changed.contains(address.address) {
            try AppDatabase.upsert(db, address, source: source)
        }
    }

    /// Records an HD wallet's transactions like ``record(_:assetID:)``, and first keeps what they
    /// paid to reserved addresses. A transaction that pays one and becomes confirmed in this
    /// pass is handed to Rule 1b (which runs with Rule 1 when the pass ends), also on an asset
    /// without allocations, which Rule 1 would not look at.
    public mutating func record(_ transactions: [ObservedTransaction], assetID: Int64, receipts: [WalletReceipt]) throws {
        var reservedTxids = Set<String>()
        for receipt in receipts {
            let reserved = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM derived_addresses WHERE source = ? AND address = ? AND reserved_goal_id IS NOT NULL)
                """, arguments: [source, receipt.address]) ?? false
            guard reserved else { continue }
            try db.execute(sql: """
                INSERT INTO reserved_receipts (asset_id, txid, address, amount) VALUES (?, ?, ?, ?)
                ON CONFLICT(asset_id, txid, address) DO UPDATE SET amount = excluded.amount
                """, arguments: [assetID, receipt.txid, receipt.address, receipt.amount])
            reservedTxids.insert(receipt.txid)
        }
        // What is stored before this pass decides what becomes confirmed in it.
        var becomingConfirmed: [NewlyConfirmed] = []
        for observed in transactions where reservedTxids.contains(observed.txid) && observed.status == .confirmed {
            let stored = try Row.fetchOne(db, sql: "SELECT status, rule1_applied_at FROM transactions WHERE asset_id = ? AND txid = ?",
                                          arguments: [assetID, observed.txid])
            let wasConfirmed = (stored?["status"] as String?) == TransactionStatus.confirmed.rawValue
            let applied = (stored?["rule1_applied_at"] as String?) != nil
            guard !wasConfirmed && !applied else { continue }
            becomingConfirmed.append(NewlyConfirmed(assetID: assetID, txid: observed.txid, amount: observed.amount,
                                                    date: observed.date ?? observed.estimatedDate ?? now))
        }
        try record(transactions, assetID: assetID)
        let listed = Set(newlyConfirmed.filter { $0.assetID == assetID }.map(\.txid))
        newlyConfirmed += becomingConfirmed.filter { !listed.contains($0.txid) }
    }
}
