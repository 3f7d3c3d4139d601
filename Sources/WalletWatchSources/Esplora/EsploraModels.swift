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

/// An Esplora transaction reduced to what walletwatch needs: who paid whom, and its status.
public struct EsploraTransaction: Hashable, Sendable {
    /// An input's spent output (`prevout`) or an output: its address (nil for non-standard
    /// scripts) and value.
    public struct Leg: Hashable, Sendable {
        public var address: String?
        public var value: Int64
    }

    public var txid: String
    public var inputs: [Leg]
    public var outputs: [Leg]
    public var fee: Int64?
    public var confirmed: Bool
    public var blockHeight: Int64?
    /// Seconds since 1970 of the block, when confirmed.
    public var blockTime: Int64?

    /// The net effect on a set of addresses: what its outputs pay to them minus what its
    /// inputs spend from them (SPEC.md section 4).
    public func amount(for addresses: Set<String>) -> Int64 {
        let received = outputs.reduce(Int64(0)) { $0 + ($1.address.map(addresses.contains) == true ? $1.value : 0) }
        let spent = inputs.reduce(Int64(0)) { $0 + ($1.address.map(addresses.contains) == true ? $1.value : 0) }
        return received - spent
    }

    /// As a transaction of the asset that owns `addresses`. The date is the block time; a
    /// transaction still in the mempool is dated when first seen (by the ingest). The
    /// counterparty is stored and shown: its invisible characters are spelled out.
    public func observed(for addresses: Set<String>) -> ObservedTransaction {
        let amount = amount(for: addresses)
        let counterparty = amount < 0
            ? outputs.first { $0.address.map(addresses.contains) == false }?.address
            : inputs.first { $0.address.map(addresses.contains) == false }?.address
        return ObservedTransaction(
            txid: txid, amount: amount, type: .onchain, status: confirmed ? .confirmed : .pending,
            date: blockTime.map { Instant(millisecondsSinceEpoch: $0 * 1000) }, fee: fee, counterparty: counterparty.map(JSONReader.printable))
    }
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
