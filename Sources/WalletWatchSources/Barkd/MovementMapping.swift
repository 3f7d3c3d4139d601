import WalletWatchCore

/// The rules of SPEC.md section 4 that turn barkd data into transactions.
public enum MovementMapping {
    /// The transaction type of a movement's subsystem; nil for a subsystem walletwatch does not know.
    public static func type(ofSubsystem name: String) -> TransactionType? {
        switch name {
        case "bark.arkoor", "bark.round": .ark
        case "bark.lightning_send", "bark.lightning_receive": .lightning
        case "bark.board": .board
        case "bark.offboard": .offboard
        case "bark.exit": .exit
        default: nil
        }
    }

    /// The subsystems ``type(ofSubsystem:)`` knows: what nearly every movement names, read
    /// without making a new string each time.
    static let knownSubsystems = ["bark.arkoor", "bark.round", "bark.lightning_send", "bark.lightning_receive", "bark.board",
                                  "bark.offboard", "bark.exit"]

    /// The stable txid of a movement: `ark:<source>:<movement id>`.
    public static func txid(source: String, movementID: Int64) -> String { "ark:\(source):\(movementID)" }

    /// A movement as a transaction of the source's Ark asset. An unknown subsystem maps to
    /// `ark` and is reported in `unknownSubsystem` so the caller can warn, never fail. The
    /// counterparty (a destination's value) is stored and shown: its invisible characters are
    /// spelled out.
    public static func transaction(_ movement: MovementData, source: String) -> (ObservedTransaction, unknownSubsystem: String?) {
        let known = type(ofSubsystem: movement.subsystem)
        let status: TransactionStatus = switch movement.status {
        case .pending: .pending
        case .successful: .confirmed
        case .failed, .canceled: .failed
        }
        let counterparty = movement.effectiveBalance < 0 ? movement.sentTo.first : movement.receivedOn.first
        let transaction = ObservedTransaction(
            txid: txid(source: source, movementID: movement.id), amount: Int128(movement.effectiveBalance),
            type: known ?? .ark, status: status, date: movement.completedAt ?? movement.createdAt,
            fee: Int128(movement.offchainFee), counterparty: counterparty.map(JSONReader.printable))
        return (transaction, known == nil ? movement.subsystem : nil)
    }

    /// An on-chain wallet transaction of barkd: confirmed once it has a block. barkd gives no
    /// time, so a mined transaction seen for the first time is dated from its depth (ten
    /// minutes a block before `now`), and keeps that date afterwards; one still in the mempool
    /// is dated when first seen.
    public static func transaction(_ wallet: WalletTransaction, tipHeight: Int64?, now: Instant) -> ObservedTransaction {
        var estimate: Instant? = nil
        if let height = wallet.confirmationHeight, let tipHeight, tipHeight >= height {
            estimate = now.adding(seconds: -(tipHeight - height) * 600)
        }
        return ObservedTransaction(
            txid: wallet.txid, amount: Int128(wallet.balanceChange), type: .onchain,
            status: wallet.confirmationHeight == nil ? .pending : .confirmed, date: nil, estimatedDate: estimate, fee: wallet.fee.map { Int128($0) })
    }
}
