import Foundation
import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Records a manual transaction after checking the ledger rules (SPEC.md section 4): the
    /// amount is not zero, the date not in the future, and no balance goes negative at any point.
    ///
    /// - parameter amount: as the user wrote it, in the asset's currency (`250.50`, `-20`, `1500sat`).
    public func addManualTransaction(
        assetName: String, amount: String, date: Instant?, note: String?, now: Instant
    ) throws -> TransactionListing {
        try write { db in
            let asset = try Self.findAsset(db, named: assetName)
            guard asset.kind == .manual, let assetID = asset.id else {
                throw Refusal("'\(asset.name)' is fed by source '\(asset.source ?? "?")'; `tx add` takes manual assets only (create one with `walletwatch asset add`)")
            }
            let minor = try AmountInput.parseMoney(amount, currency: asset.currency).minorUnits
            let transaction = try Self.insertManualTransaction(db, assetID: assetID, currency: asset.currency, amount: minor,
                                                               date: date ?? now, note: note, now: now)
            try Self.bumpChangeCounter(db)
            return try Self.listing(db, transaction: transaction, asset: asset)
        }
    }

    /// Records a manual transaction inside the caller's write `db` after checking the ledger
    /// rules, and applies Rule 1 to it in the same transaction: `tx add`, and an automatic
    /// saving plan's deposit, take this one path. The caller bumps the change counter.
    static func insertManualTransaction(
        _ db: Database, assetID: Int64, currency: Currency, amount: Int128, date: Instant, note: String?, now: Instant
    ) throws -> Transaction {
        let txid = try newManualTxid(db)
        let entry = LedgerEntry(txid: txid, amount: amount, date: date)
        try ManualLedger.checkAdd(entry, existing: ledgerEntries(db, assetID: assetID), now: now, currency: currency)
        var transaction = Transaction(
            assetID: assetID, txid: txid, amount: amount, type: .manual, status: .confirmed,
            date: entry.date, note: note, firstSeenAt: now, lastUpdated: now)
        try LedgerRow(transaction: transaction).insert(db)
        // A manual entry follows Rule 1 like an ingested one, in the same transaction, and so
        // do its notifications (a manual entry itself is announced to nobody: the user made it,
        // or a saving plan the user set up).
        let historyBefore = try lastHistoryID(db)
        if try applyRule1(db, to: [NewlyConfirmed(assetID: assetID, txid: txid, amount: amount, date: entry.date)], now: now) > 0 {
            transaction.rule1AppliedAt = now
        }
        try announceAutoAllocations(after: historyBefore, now: now, in: db)
        try announceReachedGoals(now: now, in: db)
        return transaction
    }

    /// Changes the amount, date or note of a manual transaction, if the ledger stays valid.
    public func editManualTransaction(txid: String, edit: ManualTransactionEdit, now: Instant) throws -> TransactionListing {
        try write { db in
            var (transaction, asset) = try Self.findManualTransaction(db, txid: txid)
            let amount = try edit.amount.map { text throws(UsageError) in
                try AmountInput.parseMoney(text, currency: asset.currency).minorUnits
            } ?? transaction.amount
            let replacement = LedgerEntry(txid: transaction.txid, amount: amount, date: edit.date ?? transaction.date)
            try ManualLedger.checkEdit(
                txid: transaction.txid, replacement: replacement,
                existing: Self.ledgerEntries(db, assetID: transaction.assetID), now: now, currency: asset.currency)
            if transaction.rule1AppliedAt != nil {
                try Self.adjustRule1(db, assetID: transaction.assetID, txid: transaction.txid, delta: amount - transaction.amount, now: now)
            }
            transaction.amount = amount
            transaction.direction = TransactionDirection(amount: amount)
            transaction.date = replacement.date
            if let note = edit.note { transaction.note = note }
            transaction.lastUpdated = now
            try LedgerRow(transaction: transaction).updateStored(db)
            try Self.announceReachedGoals(now: now, in: db)
            try Self.bumpChangeCounter(db)
            asset = try Self.findAsset(db, named: asset.name)
            return try Self.listing(db, transaction: transaction, asset: asset)
        }
    }

    /// Deletes a manual transaction unless a later withdrawal depends on it. Its tags stay on
    /// the txid (tags never depend on ledger rows).
    public func deleteManualTransaction(txid: String, now: Instant) throws -> TransactionListing {
        try write { db in
            let (transaction, asset) = try Self.findManualTransaction(db, txid: txid)
            try ManualLedger.checkDelete(
                txid: transaction.txid, existing: Self.ledgerEntries(db, assetID: transaction.assetID),
                currency: asset.currency)
            let listing = try Self.listing(db, transaction: transaction, asset: asset)
            if transaction.rule1AppliedAt != nil {
                try Self.adjustRule1(db, assetID: transaction.assetID, txid: transaction.txid, delta: -transaction.amount, now: now)
            }
            try LedgerRow(transaction: transaction).deleteStored(db)
            try Self.bumpChangeCounter(db)
            return listing
        }
    }

    /// Transactions matching `filter`, newest first.
    public func transactions(_ filter: TransactionFilter = TransactionFilter()) throws -> [TransactionListing] {
        try read { db in
            var conditions: [String] = []
            var values: [any DatabaseValueConvertible] = []
            if let name = filter.asset {
                conditions.append("t.asset_id = ?")
                values.append(try Self.findAsset(db, named: name).id!)
            }
            if let name = filter.tag {
                conditions.append("t.txid IN (SELECT txid FROM tag_assignments WHERE tag_id = ?)")
                values.append(try Self.findTag(db, named: name).id.uuidString.lowercased())
            }
            if let since = filter.since {
                conditions.append("t.date >= ?")
                values.append(since)
            }
            if let until = filter.until {
                conditions.append("t.date <= ?")
                values.append(until)
            }
            if let status = filter.status {
                conditions.append("t.status = ?")
                values.append(status)
            }
            var sql = "SELECT t.* FROM transactions t"
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY t.date DESC, t.txid DESC"
            if let limit = filter.limit { sql += " LIMIT \(limit)" }
            let rows = try Transaction.fetchAll(db, sql: sql, arguments: StatementArguments(values))
            return try Self.listings(db, rows)
        }
    }

    /// Every ledger row with this txid (one per asset it touches), or a refusal naming it.
    public func transactions(txid: String) throws -> [TransactionListing] {
        try read { db in
            let rows = try Transaction.filter(Column("txid") == txid).fetchAll(db)
            guard !rows.isEmpty else { throw Self.unknownTxid(txid) }
            return try Self.listings(db, rows)
        }
    }

    // MARK: - Helpers

    static func unknownTxid(_ txid: String) -> Refusal {
        Refusal("no transaction with txid '\(txid)'; `walletwatch tx list` shows the txids")
    }

    static func findManualTransaction(_ db: Database, txid: String) throws -> (Transaction, Asset) {
        let rows = try Transaction.filter(Column("txid") == txid).fetchAll(db)
        guard let transaction = rows.first else { throw unknownTxid(txid) }
        let asset = try Asset.filter(Column("id") == transaction.assetID).fetchOne(db)!
        guard asset.kind == .manual, rows.count == 1 else {
            throw Refusal("transaction \(txid) comes from source '\(asset.source ?? "?")' and changes only when the source reports it; only manual transactions can be edited or deleted")
        }
        return (transaction, asset)
    }

    static func ledgerEntries(_ db: Database, assetID: Int64) throws -> [LedgerEntry] {
        try Transaction
            .filter(Column("asset_id") == assetID && Column("status") == TransactionStatus.confirmed)
            .fetchAll(db)
            .map { LedgerEntry(txid: $0.txid, amount: $0.amount, date: $0.date) }
    }

    /// A fresh txid for a manual entry: `manual:` and 12 hex digits, unique in the ledger.
    static func newManualTxid(_ db: Database) throws -> String {
        while true {
            let hex = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
            let txid = "manual:\(hex)"
            if try Transaction.filter(Column("txid") == txid).fetchCount(db) == 0 { return txid }
        }
    }

    static func listing(_ db: Database, transaction: Transaction, asset: Asset) throws -> TransactionListing {
        TransactionListing(transaction: transaction, assetName: asset.name, currency: asset.currency,
                           tags: try tagNames(db, txids: [transaction.txid])[transaction.txid] ?? [])
    }

    static func listings(_ db: Database, _ rows: [Transaction]) throws -> [TransactionListing] {
        let assets = try Dictionary(uniqueKeysWithValues: Asset.fetchAll(db).map { ($0.id!, $0) })
        let tags = try tagNames(db, txids: rows.count <= 500 ? Set(rows.map(\.txid)) : nil)
        return rows.map { row in
            let asset = assets[row.assetID]!
            return TransactionListing(transaction: row, assetName: asset.name, currency: asset.currency,
                                      tags: tags[row.txid] ?? [])
        }
    }

    /// Tag names by txid, alphabetically; for all txids when `txids` is nil.
    static func tagNames(_ db: Database, txids: Set<String>?) throws -> [String: [String]] {
        var sql = "SELECT a.txid, g.name FROM tag_assignments a JOIN tags g ON g.id = a.tag_id"
        var arguments: StatementArguments = []
        if let txids {
            guard !txids.isEmpty else { return [:] }
            sql += " WHERE a.txid IN (\(Array(repeating: "?", count: txids.count).joined(separator: ",")))"
            arguments = StatementArguments(Array(txids))
        }
        var result: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            result[row["txid"], default: []].append(row["name"])
        }
        return result.mapValues { $0.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending } }
    }
}
