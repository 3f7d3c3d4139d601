/// Which part of an HD wallet an address belongs to: the derived `receive` and `change` chains,
/// or the fixed addresses the config lists beside them (`listed`).
public enum WalletChain: String, Sendable, Hashable, Codable, CaseIterable {
    /// Addresses given out to be paid (BIP44 chain 0).
    case receive
    /// Addresses the wallet pays its own change to (BIP44 chain 1).
    case change
    /// Fixed addresses of the config (`addresses`, non-ranged descriptors).
    case listed
}

/// What a chain server says about one address: its confirmed and mempool activity.
public struct AddressActivity: Sendable, Hashable {
    /// Confirmed transactions that touch it.
    public var chainTxCount: Int64
    /// What its confirmed transactions paid to it.
    public var funded: Int64
    /// What its confirmed transactions spent from it.
    public var spent: Int64
    /// Mempool transactions that touch it.
    public var mempoolTxCount: Int64
    /// What the mempool transactions add (or take, when negative).
    public var mempoolDelta: Int64

    /// Activity with the given figures; none by default.
    public init(chainTxCount: Int64 = 0, funded: Int64 = 0, spent: Int64 = 0, mempoolTxCount: Int64 = 0, mempoolDelta: Int64 = 0) {
        self.chainTxCount = chainTxCount
        self.funded = funded
        self.spent = spent
        self.mempoolTxCount = mempoolTxCount
        self.mempoolDelta = mempoolDelta
    }

    /// The confirmed balance: funded minus spent.
    public var balance: Int64 { funded - spent }

    /// Whether any transaction, confirmed or not, touches it.
    public var isUsed: Bool { chainTxCount + mempoolTxCount > 0 }
}

/// One watched address of an HD wallet, kept between passes so that it is derived once and
/// asked only for what changed.
public struct WalletAddress: Sendable, Hashable {
    /// The chain it is on.
    public var chain: WalletChain
    /// Its index on the chain (its position in the config for a listed address).
    public var index: Int
    /// Its scriptPubKey, as hex.
    public var script: String
    /// The address text.
    public var address: String
    /// What the explorer said about it last.
    public var activity: AddressActivity
    /// The date of its first transaction, once it has one.
    public var firstUsedAt: Instant?
    /// When its history was last stored: nil until it is stored whole once.
    public var syncedAt: Instant?
    /// The server's digest of its history when it was last read (an Electrum server's status:
    /// a pass reads the history again only when it differs); nil for an explorer without one.
    public var status: String?

    /// An address with what is known about it.
    public init(chain: WalletChain, index: Int, script: String, address: String, activity: AddressActivity = AddressActivity(),
                firstUsedAt: Instant? = nil, syncedAt: Instant? = nil, status: String? = nil) {
        self.chain = chain
        self.index = index
        self.script = script
        self.address = address
        self.activity = activity
        self.firstUsedAt = firstUsedAt
        self.syncedAt = syncedAt
        self.status = status
    }
}

/// What one transaction paid to one of an HD wallet's addresses (Rule 1b looks at those paid
/// to a goal's reserved address).
public struct WalletReceipt: Sendable, Hashable {
    /// The paying transaction.
    public let txid: String
    /// The wallet's address it paid.
    public let address: String
    /// Sats, above zero.
    public let amount: Int64

    /// What `txid` paid to `address`.
    public init(txid: String, address: String, amount: Int64) {
        self.txid = txid
        self.address = address
        self.amount = amount
    }
}
