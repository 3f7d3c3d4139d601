import WalletWatchCore
import WalletWatchStore

/// What `export csv` writes.
public enum CSVExportKind: String, CaseIterable, Sendable {
    /// Every transaction with its tags, oldest first.
    case transactions
    /// Every allocation-history row, oldest first.
    case allocations
    /// Every closed month's frozen figures, one row per goal, oldest month first.
    case months
}

extension Reports {
    /// An RFC 4180 CSV file (header line, CRLF) of `kind`: dates in ISO 8601 UTC, amounts in
    /// major units with their currency in the next column. Returns the text and the row count.
    public func exportCSV(_ kind: CSVExportKind) throws -> (text: String, rows: Int) {
        let header: [String]
        let rows: [[String]]
        let major = { (minor: Int128, currency: Currency) in Money.majorString(minor, exponent: currency.exponent) }
        switch kind {
        case .transactions:
            header = ["txid", "asset", "date", "amount", "currency", "direction", "type", "status", "fee", "counterparty", "note", "tags"]
            rows = try database.transactions().reversed().map { listing in
                let tx = listing.transaction
                return [tx.txid, listing.assetName, tx.date.iso8601, major(tx.amount, listing.currency), listing.currency.code,
                        tx.direction.rawValue, tx.type.rawValue, tx.status.rawValue, tx.fee.map { major($0, listing.currency) } ?? "",
                        tx.counterparty ?? "", tx.note ?? "", listing.tags.joined(separator: ", ")]
            }
        case .allocations:
            header = ["timestamp", "asset", "goal", "amount", "currency", "reason", "txid", "created_at"]
            rows = try database.allocationHistoryListings().map { row in
                [row.timestamp.iso8601, row.asset, row.goal, major(row.amount, row.currency), row.currency.code, row.reason.rawValue,
                 row.txid ?? "", row.createdAt.iso8601]
            }
        case .months:
            header = ["month", "goal", "currency", "planned", "contributed", "remaining", "started_at", "completed_at"]
            rows = try database.closedMonths().reversed().flatMap { record, data in
                data.goals.map { goal in
                    [record.month.description, goal.name, goal.currency.code, major(goal.planned, goal.currency),
                     major(goal.contributed, goal.currency), major(goal.remaining, goal.currency), data.startedAt.iso8601, data.completedAt.iso8601]
                }
            }
        }
        return (CSV.document(header: header, rows: rows), rows.count)
    }
}
