import WalletWatchCore

/// `chain_stats` or `mempool_stats` of an address.
public struct AddressStats: Hashable, Sendable {
    public var fundedSum: Int64
    public var spentSum: Int64
    public var transactionCount: Int64

    /// What the address received minus what it spent.
    public var delta: Int64 { fundedSum - spentSum }
}

/// `GET /address/:a`.
public struct AddressSummary: Hashable, Sendable {
    public var chain: AddressStats
    public var mempool: AddressStats
}

/// The result of syncing an Esplora source's addresses.
public struct EsploraSync: Sendable {
    /// Confirmed: the chain sums; untrusted pending: the mempool delta.
    public var balance: OnchainBalance
    /// Every transaction fetched, once per txid, with its amount for the whole address set.
    /// Complete for the mempool; for confirmed history only down to the first known page
    /// unless the sync was full.
    public var transactions: [ObservedTransaction]
    /// How many HTTP requests the sync made.
    public var requests: Int
    /// The chain tip, fetched on full syncs only.
    public var tipHeight: Int64?
}
