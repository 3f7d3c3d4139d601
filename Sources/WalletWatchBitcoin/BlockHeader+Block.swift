extension BlockHeader {
    /// The block this header heads, as a node stores and serves it (`getblock` with verbosity 0):
    /// the 80 header bytes, the transaction count, then each transaction's bytes (coinbase first)
    /// as given, already serialized.
    public func block(withTransactions transactions: [[UInt8]]) -> [UInt8] {
        var bytes = serialized + RawTransaction.compactSize(transactions.count)
        for transaction in transactions { bytes += transaction }
        return bytes
    }

    /// The merkle branch of the txid at `index` among `txids` (each in internal byte order,
    /// coinbase first): the hash it is paired with at each level, deepest first, as an Electrum
    /// server's `blockchain.transaction.get_merkle` lists them. A block of one transaction has an
    /// empty branch.
    public static func merkleBranch(_ txids: [[UInt8]], index: Int) -> [[UInt8]] {
        precondition(txids.indices.contains(index), "the index of one of the txids")
        var level = txids
        var position = index
        var branch: [[UInt8]] = []
        while level.count > 1 {
            if level.count % 2 == 1 { level.append(level[level.count - 1]) }
            branch.append(level[position ^ 1])
            position >>= 1
            level = stride(from: 0, to: level.count, by: 2).map { Hashes.doubleSHA256(level[$0] + level[$0 + 1]) }
        }
        return branch
    }
}
