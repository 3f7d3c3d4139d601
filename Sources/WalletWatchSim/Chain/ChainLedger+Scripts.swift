/// One entry of a script's history as Electrum lists it: mined at `height` (0: in the mempool
/// with every input mined; -1: in the mempool with an input that is not), with the fee of
/// mempool entries.
struct ScriptHistoryItem: Sendable, Hashable {
    let txid: String
    let height: Int
    let fee: Int64?

    /// protocol-basics' order of mempool entries: by `(-height, txid)`, so those with every
    /// input mined (0) come before the others (-1), each group by txid as displayed.
    static func mempoolOrder(_ lhs: ScriptHistoryItem, _ rhs: ScriptHistoryItem) -> Bool {
        (-lhs.height, lhs.txid) < (-rhs.height, rhs.txid)
    }
}

/// One unspent output of a script, as `blockchain.scripthash.listunspent` lists it.
struct ScriptUnspent: Sendable, Hashable {
    let txid: String
    let vout: Int
    /// The block height; 0 in the mempool.
    let height: Int
    let value: Int64
}

extension ChainLedger {
    /// The script's history in the order Electrum's protocol-basics ("Status") defines: mined
    /// transactions by height and position in the block, then mempool ones with every input
    /// mined (height 0) before the others (-1), each group by txid.
    func history(of scripthash: String) -> [ScriptHistoryItem] {
        let touching = txids(touching: scripthash).compactMap { transactions[$0] }
        let mined = touching.filter { $0.height != nil }.sorted { $0.chainKey < $1.chainKey }
            .map { ScriptHistoryItem(txid: $0.txid, height: $0.height ?? 0, fee: nil) }
        let pending = touching.filter { $0.height == nil }
            .map { ScriptHistoryItem(txid: $0.txid, height: hasUnconfirmedInput($0) ? -1 : 0, fee: $0.fee) }
            .sorted(by: ScriptHistoryItem.mempoolOrder)
        return mined + pending
    }

    /// Whether a mempool transaction spends an output of another mempool transaction.
    func hasUnconfirmedInput(_ transaction: LedgerTransaction) -> Bool {
        transaction.spends.contains { transactions[$0.txid]?.height == nil }
    }

    /// The script's unspent outputs as ElectrumX lists them: mined ones in chain order, then
    /// the mempool's by txid and index, leaving out any output a mempool transaction spends.
    func unspent(of scripthash: String) -> [ScriptUnspent] {
        var mined: [(ChainKey, ScriptUnspent)] = []
        var pending: [ScriptUnspent] = []
        for outpoint in unspentOutputs[scripthash] ?? [] {
            guard let transaction = transactions[outpoint.txid] else { continue }
            let value = transaction.raw.outputs[outpoint.vout].value
            if let height = transaction.height {
                mined.append((transaction.chainKey, ScriptUnspent(txid: outpoint.txid, vout: outpoint.vout, height: height, value: value)))
            } else {
                pending.append(ScriptUnspent(txid: outpoint.txid, vout: outpoint.vout, height: 0, value: value))
            }
        }
        return mined.sorted { ($0.0, $0.1.vout) < ($1.0, $1.1.vout) }.map(\.1) + pending.sorted { ($0.txid, $0.vout) < ($1.txid, $1.vout) }
    }

    /// The script's balance as ElectrumX computes it: `confirmed` sums the outputs that no mined
    /// transaction spends; `unconfirmed` is what the mempool pays it minus what the mempool spends
    /// of it.
    func balance(of scripthash: String) -> (confirmed: Int64, unconfirmed: Int64) {
        var confirmed: Int64 = 0
        var unconfirmed: Int64 = 0
        for transaction in txids(touching: scripthash).compactMap({ transactions[$0] }) {
            for (vout, output) in transaction.raw.outputs.enumerated() where transaction.outputScripthashes[vout] == scripthash {
                if transaction.height == nil {
                    unconfirmed += output.value
                } else if spender(of: Outpoint(txid: transaction.txid, vout: vout)).flatMap({ transactions[$0]?.height }) == nil {
                    confirmed += output.value
                }
            }
            guard transaction.height == nil else { continue }
            for outpoint in transaction.spends {
                guard let parent = transactions[outpoint.txid], parent.outputScripthashes[outpoint.vout] == scripthash else { continue }
                unconfirmed -= parent.raw.outputs[outpoint.vout].value
            }
        }
        return (confirmed, unconfirmed)
    }
}
