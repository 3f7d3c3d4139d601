/// Where a transaction comes from.
public enum TransactionType: String, Sendable, CaseIterable, Codable {
    case ark, onchain, lightning, board, offboard, exit, manual
    /// A balance change no transaction explains, recorded as one row of the difference (an EVM
    /// source watched through a node alone, SPEC.md section 26).
    case adjustment
}

/// The life of a transaction. Only confirmed transactions change counted balances.
public enum TransactionStatus: String, Sendable, CaseIterable, Codable {
    case pending, confirmed, failed
}

/// Whether a transaction adds to or takes from its asset.
public enum TransactionDirection: String, Sendable, CaseIterable, Codable {
    case incoming, outgoing

    /// The direction of a signed amount (zero counts as incoming).
    public init(amount: Int128) { self = amount < 0 ? .outgoing : .incoming }
}

/// One change of an asset's balance, keyed by a stable txid. The same txid may appear under two
/// assets (a transfer between two watched wallets): two ledger rows, one txid.
public struct Transaction: Hashable, Sendable {
    public var assetID: Int64
    /// Stable across refreshes: `ark:<source>:<movement id>`, an on-chain txid, or `manual:<id>`.
    public var txid: String
    /// Signed minor units of the asset's currency.
    public var amount: Int128
    public var type: TransactionType
    public var status: TransactionStatus
    public var direction: TransactionDirection
    /// When it happened (for on-chain: the block time, or first seen while unconfirmed).
    public var date: Instant
    public var round: Int64?
    public var boardTxid: String?
    public var fee: Int128?
    /// The first destination or address, when the source names one.
    public var counterparty: String?
    /// A free-text note (manual entries).
    public var note: String?
    public var firstSeenAt: Instant
    public var lastUpdated: Instant
    /// When Rule 1 (auto-allocation) was applied to this row; set at most once.
    public var rule1AppliedAt: Instant?

    public init(
        assetID: Int64, txid: String, amount: Int128, type: TransactionType, status: TransactionStatus,
        date: Instant, round: Int64? = nil, boardTxid: String? = nil, fee: Int128? = nil,
        counterparty: String? = nil, note: String? = nil, firstSeenAt: Instant, lastUpdated: Instant,
        rule1AppliedAt: Instant? = nil
    ) {
        self.assetID = assetID
        self.txid = txid
        self.amount = amount
        self.type = type
        self.status = status
        self.direction = TransactionDirection(amount: amount)
        self.date = date
        self.round = round
        self.boardTxid = boardTxid
        self.fee = fee
        self.counterparty = counterparty
        self.note = note
        self.firstSeenAt = firstSeenAt
        self.lastUpdated = lastUpdated
        self.rule1AppliedAt = rule1AppliedAt
    }
}
