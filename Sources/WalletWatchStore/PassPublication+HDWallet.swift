import GRDB
import WalletWatchCore

/// The writes of an HD wallet's pass besides its transactions, in its ingest transaction: its
/// addresses, and the payments to reserved addresses that Rule 1b allocates.
extension PassPublication {
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

    /// Keeps what this pass's transactions paid to addresses reserved for a goal, stamped with
    /// the pass's time: Rule 1b (`AppDatabase+Rule1b.swift`), which runs with Rule 1 when the pass
    /// ends, allocates those of them that are confirmed and not allocated yet. Payments to other
    /// addresses are not kept.
    public func recordReservedReceipts(_ receipts: [WalletReceipt]) throws {
        for receipt in receipts {
            try db.execute(sql: """
                INSERT INTO reserved_receipts (source, txid, address, amount, recorded_at)
                SELECT ?, ?, ?, ?, ? WHERE EXISTS (
                    SELECT 1 FROM derived_addresses WHERE source = ? AND address = ? AND reserved_goal_id IS NOT NULL)
                ON CONFLICT(source, txid, address) DO UPDATE SET amount = excluded.amount, recorded_at = excluded.recorded_at
                """, arguments: [source, receipt.txid, receipt.address, receipt.amount, now, source, receipt.address])
        }
    }
}
