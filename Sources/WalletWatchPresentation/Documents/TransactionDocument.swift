import WalletWatchCore
import WalletWatchEngine

/// The JSON shape of a transaction (CLI.md: `tx list`, `tx show`, `/api/v1/transactions`).
public enum TransactionDocument {
    /// The fields of `tx list`; `detailed` adds the fields `tx show` prints. A valued listing
    /// also carries `value_at_date` (minor units of `value_currency`, the display currency;
    /// null without a rate at its date) and `value_currency`.
    public static func json(_ listing: TransactionListing, detailed: Bool = false) -> JSONValue {
        let tx = listing.transaction
        var members: [JSONValue.Member] = [
            .init("txid", .string(tx.txid)),
            .init("asset", .string(listing.assetName)),
            .init("amount", .int(tx.amount)),
            .init("currency", .string(listing.currency.code)),
            .init("type", .string(tx.type.rawValue)),
            .init("status", .string(tx.status.rawValue)),
            .init("direction", .string(tx.direction.rawValue)),
            .init("date", .string(tx.date.iso8601)),
            .init("tags", .array(listing.tags.map(JSONValue.string))),
        ]
        if let value = listing.value {
            members += [.init("value_at_date", .int(value.amount)), .init("value_currency", .string(value.currency.code))]
        }
        if detailed {
            members += [
                .init("fee", .int(tx.fee)),
                .init("round", .int(tx.round)),
                .init("board_txid", .string(tx.boardTxid)),
                .init("counterparty", .string(tx.counterparty)),
                .init("note", .string(tx.note)),
                .init("first_seen_at", .string(tx.firstSeenAt.iso8601)),
                .init("last_updated", .string(tx.lastUpdated.iso8601)),
                .init("auto_allocated_at", .string(tx.rule1AppliedAt?.iso8601)),
            ]
        }
        return .object(members)
    }
}
