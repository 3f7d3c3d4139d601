/// A transaction as a source reports it, before it is tied to a stored asset.
public struct ObservedTransaction: Hashable, Sendable {
    /// Stable across refreshes: `ark:<source>:<movement id>` or an on-chain txid.
    public var txid: String
    /// Signed smallest units of the asset's currency: positive into the asset, negative out of it.
    public var amount: Int128
    public var type: TransactionType
    public var status: TransactionStatus
    /// When it happened, as the source states it; nil when the source does not say.
    public var date: Instant?
    /// A guess used only when the transaction is first stored and `date` is nil (barkd's
    /// on-chain transactions have a block height but no time). Never used to update a row:
    /// a guess that moves with the clock must not rewrite unchanged transactions.
    public var estimatedDate: Instant?
    public var fee: Int128?
    public var round: Int64?
    public var boardTxid: String?
    /// The first destination (outgoing) or origin (incoming), when known.
    public var counterparty: String?

    public init(txid: String, amount: Int128, type: TransactionType, status: TransactionStatus, date: Instant?,
                estimatedDate: Instant? = nil, fee: Int128? = nil, round: Int64? = nil, boardTxid: String? = nil,
                counterparty: String? = nil) {
        self.txid = txid
        self.amount = amount
        self.type = type
        self.status = status
        self.date = date
        self.estimatedDate = estimatedDate
        self.fee = fee
        self.round = round
        self.boardTxid = boardTxid
        self.counterparty = counterparty
    }

    public var direction: TransactionDirection { TransactionDirection(amount: amount) }
}

/// A virtual transaction output held by an Ark wallet; it must be refreshed before its expiry height.
public struct VTXO: Hashable, Sendable {
    /// `txid:vout`.
    public var id: String
    public var amount: Int64
    public var expiryHeight: Int64
    /// `spendable`, `locked`, `spent` or `exited`.
    public var state: String

    public init(id: String, amount: Int64, expiryHeight: Int64, state: String) {
        self.id = id
        self.amount = amount
        self.expiryHeight = expiryHeight
        self.state = state
    }
}

/// An unspent on-chain output of a wallet.
public struct UTXO: Hashable, Sendable {
    /// `txid:vout`.
    public var outpoint: String
    public var amount: Int64
    /// Nil while unconfirmed.
    public var confirmationHeight: Int64?

    public init(outpoint: String, amount: Int64, confirmationHeight: Int64?) {
        self.outpoint = outpoint
        self.amount = amount
        self.confirmationHeight = confirmationHeight
    }
}

/// What a barkd wallet says about its Ark server.
public struct ArkServerInfo: Hashable, Sendable {
    public var network: String
    public var serverPubkey: String
    public var roundInterval: String
    /// Blocks a VTXO lives before it expires (barkd's `vtxo_lifetime`, formerly
    /// `vtxo_expiry_delta`); nil when the daemon sends neither.
    public var vtxoLifetime: Int64?

    public init(network: String, serverPubkey: String, roundInterval: String, vtxoLifetime: Int64?) {
        self.network = network
        self.serverPubkey = serverPubkey
        self.roundInterval = roundInterval
        self.vtxoLifetime = vtxoLifetime
    }
}
