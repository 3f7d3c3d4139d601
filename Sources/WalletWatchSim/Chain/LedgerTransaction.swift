import WalletWatchBitcoin

/// A real transaction of the simulated chain, as the Electrum and Core faces serve it: its
/// bytes, the outputs it spends, the scripts it touches and where it is.
struct LedgerTransaction: Sendable {
    let txid: String
    let raw: RawTransaction
    /// The bytes a block holds and `blockchain.transaction.get` answers (BIP144's form when an
    /// input has a witness).
    let bytes: [UInt8]
    /// The outputs it spends, in input order; none for a coinbase.
    let spends: [Outpoint]
    /// The Electrum scripthash of each output's script, by output index.
    let outputScripthashes: [String]
    /// The Electrum scripthashes of the scripts it pays or spends from, each once.
    let scripthashes: [String]
    /// Sats: the value of what it spends minus what it pays; 0 for a coinbase.
    let fee: Int64
    /// The block it is in; nil in the mempool.
    var height: Int?
    /// Order of arrival: a block holds its transactions in this order, after the coinbase.
    let order: Int64

    /// Whether it is a block's coinbase (it spends nothing).
    var isCoinbase: Bool { spends.isEmpty }

    /// Where it sorts among confirmed transactions: by height, the coinbase first, then arrival.
    var chainKey: ChainKey { ChainKey(height: height ?? Int.max, coinbaseFirst: isCoinbase ? 0 : 1, order: order) }
}

/// The position of a transaction in the chain: block height, then its place in the block.
struct ChainKey: Comparable, Hashable, Sendable {
    let height: Int
    let coinbaseFirst: Int
    let order: Int64

    static func < (lhs: ChainKey, rhs: ChainKey) -> Bool {
        (lhs.height, lhs.coinbaseFirst, lhs.order) < (rhs.height, rhs.coinbaseFirst, rhs.order)
    }
}
