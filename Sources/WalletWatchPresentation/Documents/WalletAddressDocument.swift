import WalletWatchCore
import WalletWatchEngine

/// The JSON shapes of HD wallets' addresses (CLI.md "Additions": `asset addresses`, `goal address`).
public enum WalletAddressDocument {
    /// `asset addresses`: every address of the window, receive chain first, then change, then
    /// listed, each by index; `--deep` finds among them with `beyond_gap` true.
    public static func listing(_ listing: WalletAddresses.Listing) -> JSONValue {
        .array(listing.rows.map { row in
            let address = row.address
            return .object([
                "address": .string(address.address),
                "chain": .string(address.chain.rawValue),
                "index": address.chain == .listed ? .null : .int(Int64(address.index)),
                "tx_count": .int(address.activity.chainTxCount + address.activity.mempoolTxCount),
                "balance": .int(address.activity.balance),
                "reserved_for": .string(row.reservedFor),
                "beyond_gap": .bool(row.beyondGap),
            ])
        })
    }

    /// `goal address`: the goal's deposit address and its BIP21 URI.
    public static func deposit(_ deposit: WalletAddresses.DepositAddress) -> JSONValue {
        .object([
            "goal": .string(deposit.goal),
            "asset": .string(deposit.asset),
            "address": .string(deposit.address),
            "index": .int(Int64(deposit.index)),
            "uri": .string(deposit.uri),
        ])
    }
}
