/// What happens to the transactions of the blocks a reorg replaces.
public enum ReorgDisposition: String, Sendable, Codable {
    /// They go back to the mempool (the usual case: the new blocks did not include them).
    case mempool
    /// They are dropped, with every transaction that spends them (a conflicting chain won).
    case drop
    /// They are mined again, all in the new chain's last block.
    case mine
}

/// What a reorg did.
public struct ReorgResult: Sendable, Codable, Hashable {
    /// The first height replaced.
    public var forkHeight: Int
    /// The tip before.
    public var oldTip: Int
    /// The tip after.
    public var tipHeight: Int
    /// The transactions of the replaced blocks, in chain order.
    public var transactions: [String]
    /// Those dropped (with their descendants) when the disposition was `drop`.
    public var dropped: [String]

    private enum CodingKeys: String, CodingKey {
        case forkHeight = "fork_height", oldTip = "old_tip", tipHeight = "tip_height", transactions, dropped
    }
}

extension SimulatedChain {
    /// Replaces the last `depth` blocks with `count` new ones (default `depth + 1`: a real node
    /// switches only to a longer chain, and ElectrumX notices a reorg only when the chain grows),
    /// with new hashes; their transactions go back to the mempool, are dropped, or are mined
    /// again in the new tip block. A block whose coinbase the faucet spent cannot be replaced.
    mutating func reorg(depth: Int, blocks count: Int?, transactions disposition: ReorgDisposition) throws -> ReorgResult {
        guard depth >= 1, depth <= tip else { throw SimulatorError(.invalid, "depth must be 1 to the tip height (\(tip)): block 0 stays") }
        let count = count ?? depth + 1
        guard count >= depth else { throw SimulatorError(.invalid, "a reorg replaces \(depth) blocks with at least as many, not \(count)") }
        try checkHeight(tip - depth + count)
        let (fork, oldTip) = (tip - depth + 1, tip)
        for height in fork...oldTip {
            guard let coinbase = ledger.coinbases[height], let spender = ledger.spender(of: Outpoint(txid: coinbase, vout: 0)) else { continue }
            throw SimulatorError(.conflict, "block \(height)'s coinbase is spent by \(spender): a reorg of \(depth) blocks would invalidate it")
        }
        let moved = esplora.minedTxids(in: fork...oldTip)
        retireBlocks(from: fork)
        // Youngest first: a parent returns to the mempool after its children.
        for txid in moved.reversed() {
            if ledger.transaction(txid) != nil { try ledger.move(txid, to: nil) }
            try esplora.unconfirm(txid: txid)
        }
        cut(below: fork)
        raiseTip(to: fork + count - 1)
        var dropped: [String] = []
        switch disposition {
        case .mempool:
            break
        case .drop:
            for txid in moved.reversed() where esplora.lookup(txid) != nil && !dropped.contains(txid) {
                dropped += try evict(txid)
            }
        case .mine:
            for txid in moved {
                if ledger.transaction(txid) != nil { try ledger.move(txid, to: tip) }
                try esplora.confirm(txid: txid, height: tip, time: nil)
            }
        }
        return ReorgResult(forkHeight: fork, oldTip: oldTip, tipHeight: tip, transactions: moved, dropped: dropped)
    }

    /// Replaces a mempool transaction (BIP125): a new one spends the same inputs and pays
    /// `outputs` (default: the same ones, the last, its change, less the higher fee), with a fee
    /// above the old one's (`fee`, default the old fee plus 1,000 sats). The old one and its
    /// descendants leave the mempool. Returns the replacement and the txids it evicted.
    mutating func replace(_ txid: String, fee: Int64?, outputs: [EsploraTxIO]?) throws -> (replacement: EsploraTxSpec, evicted: [String]) {
        guard let old = ledger.transaction(txid), let spec = esplora.lookup(txid) else {
            throw SimulatorError(.notFound, "no real transaction \(txid) (only the simulator's own payments can be replaced)")
        }
        guard old.height == nil else { throw SimulatorError(.conflict, "transaction \(txid) is mined; only mempool transactions can be replaced") }
        let spent = spec.inputs.reduce(0) { $0 + $1.value }
        var newOutputs = outputs ?? spec.outputs
        if outputs == nil {
            let newFee = fee ?? old.fee + 1_000
            newOutputs[newOutputs.count - 1].value -= newFee - old.fee
        }
        let newFee = spent - newOutputs.reduce(0) { $0 + $1.value }
        guard newFee > old.fee else { throw SimulatorError(.invalid, "a replacement pays more fee than \(old.fee) sats, not \(newFee)") }
        let checked = try Self.checked(newOutputs)
        let coins = spec.inputs.map { ChainCoin(outpoint: Outpoint(txid: $0.txid ?? "", vout: $0.vout ?? 0), value: $0.value, address: $0.address) }
        let evicted = try evict(txid)
        return (try addPayment(spending: coins, paying: checked, height: nil), evicted)
    }
}
