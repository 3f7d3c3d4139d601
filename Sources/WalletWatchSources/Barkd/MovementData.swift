import WalletWatchCore

/// One barkd movement (an Ark send or receive, Lightning payment, board, offboard, exit or
/// refresh) with the fields walletwatch uses, decoded strictly from the API's `Movement`.
public struct MovementData: Hashable, Sendable {
    /// barkd's `MovementStatus`.
    public enum Status: String, Sendable, CaseIterable {
        case pending, successful, failed, canceled
    }

    public var id: Int64
    public var status: Status
    /// `subsystem.name`, e.g. `bark.arkoor`.
    public var subsystem: String
    /// `subsystem.kind`, e.g. `send`.
    public var kind: String
    /// How much the balance actually changed (signed sats).
    public var effectiveBalance: Int64
    public var offchainFee: Int64
    /// Destination values of `sent_to`, in order.
    public var sentTo: [String]
    /// Destination values of `received_on`, in order.
    public var receivedOn: [String]
    public var createdAt: Instant
    public var updatedAt: Instant
    public var completedAt: Instant?

    public init(id: Int64, status: Status, subsystem: String, kind: String, effectiveBalance: Int64, offchainFee: Int64,
                sentTo: [String], receivedOn: [String], createdAt: Instant, updatedAt: Instant, completedAt: Instant?) {
        self.id = id
        self.status = status
        self.subsystem = subsystem
        self.kind = kind
        self.effectiveBalance = effectiveBalance
        self.offchainFee = offchainFee
        self.sentTo = sentTo
        self.receivedOn = receivedOn
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.completedAt = completedAt
    }
}

/// An on-chain wallet transaction of a barkd daemon (`WalletTxInfo`).
public struct WalletTransaction: Hashable, Sendable {
    public var txid: String
    /// Net change to the wallet: received minus sent over wallet-owned outputs.
    public var balanceChange: Int64
    /// The block height once mined; nil in the mempool.
    public var confirmationHeight: Int64?
    public var fee: Int64?

    public init(txid: String, balanceChange: Int64, confirmationHeight: Int64?, fee: Int64?) {
        self.txid = txid
        self.balanceChange = balanceChange
        self.confirmationHeight = confirmationHeight
        self.fee = fee
    }
}

/// A barkd long-poll notification about a movement.
public struct WalletNotification: Hashable, Sendable {
    public enum Kind: String, Sendable { case movementCreated = "movement-created", movementUpdated = "movement-updated", channelLagging = "channel-lagging" }
    public var kind: Kind
    public var movementID: Int64?
}

/// What one long poll returned.
public struct NotificationBatch: Hashable, Sendable {
    public var notifications: [WalletNotification]
    /// Pass back, verbatim, as `since` in the next poll (barkd's times have more precision
    /// than walletwatch's milliseconds).
    public var lastPushedAt: String?
}
