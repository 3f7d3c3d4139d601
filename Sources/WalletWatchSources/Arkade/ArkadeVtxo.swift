import WalletWatchCore

/// A VTXO as Arkade reports it: Fulmine's `Vtxo` and arkd's indexer `IndexerVtxo` carry the
/// same fields (Fulmine copies them from the indexer), decoded strictly by ``ArkadeDecoding``.
public struct ArkadeVtxo: Hashable, Sendable {
    /// `txid:vout`, the txid in lower case.
    public var outpoint: String
    /// The transaction that created it: an Ark transaction (preconfirmed, out of a batch) or a
    /// batch's tree transaction.
    public var txid: String
    public var amount: Int64
    /// The VTXO's script in lower-case hex (`5120` and the x-only taproot key).
    public var script: String
    /// Unix seconds.
    public var createdAt: Int64
    /// Unix seconds, or a block height when below ``ArkadeVtxo/heightLimit`` (arkd's relative
    /// expiries), 0 for none.
    public var expiresAt: Int64
    public var isPreconfirmed: Bool
    public var isSwept: Bool
    public var isUnrolled: Bool
    public var isSpent: Bool
    /// The forfeit or checkpoint transaction that spent it ("" while unspent).
    public var spentBy: String
    /// The commitment transaction of the batch that settled it ("" when none did).
    public var settledBy: String
    /// The Ark transaction that spent it ("" while unspent, or when a batch took it).
    public var arkTxid: String
    /// The commitment transactions it descends from.
    public var commitmentTxids: [String]

    public init(outpoint: String, amount: Int64, script: String, createdAt: Int64, expiresAt: Int64, isPreconfirmed: Bool,
                isSwept: Bool, isUnrolled: Bool, isSpent: Bool, spentBy: String, settledBy: String, arkTxid: String,
                commitmentTxids: [String]) {
        self.outpoint = outpoint
        self.txid = String(outpoint.prefix { $0 != ":" })
        self.amount = amount
        self.script = script
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.isPreconfirmed = isPreconfirmed
        self.isSwept = isSwept
        self.isUnrolled = isUnrolled
        self.isSpent = isSpent
        self.spentBy = spentBy
        self.settledBy = settledBy
        self.arkTxid = arkTxid
        self.commitmentTxids = commitmentTxids
    }

    /// `expiresAt` values below this (2025-01-01 in unix seconds) are block heights (ts-sdk's
    /// `parseWireExpiry`).
    public static let heightLimit: Int64 = 1_735_689_600

    /// Whether it has expired at `now`: a time expiry in the past (a height expiry needs the
    /// chain tip, which neither API gives; the server sweeps such a VTXO, which shows).
    public func hasExpired(at now: Instant) -> Bool {
        expiresAt >= Self.heightLimit && expiresAt * 1000 <= now.millisecondsSinceEpoch
    }

    /// What walletwatch stores for it (SPEC.md section 3's `vtxos`): its state is the first of
    /// `spent`, `unrolled`, `swept`, `expired`, `preconfirmed`, `settled` that applies.
    public func stored(at now: Instant) -> VTXO {
        let state = if isSpent { "spent" } else if isUnrolled { "unrolled" } else if isSwept { "swept" }
            else if hasExpired(at: now) { "expired" } else if isPreconfirmed { "preconfirmed" } else { "settled" }
        return VTXO(id: outpoint, amount: amount, expiryHeight: expiresAt < Self.heightLimit ? expiresAt : 0, state: state)
    }
}
