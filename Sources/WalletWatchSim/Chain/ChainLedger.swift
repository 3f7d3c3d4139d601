import WalletWatchBitcoin

/// The real transactions of the simulated chain and the indexes the Electrum and Core faces
/// answer from: who spends each output, which transactions touch each script, what each block
/// holds besides its coinbase, and the mempool. Every input must spend an output that exists and
/// that nothing else spends, and a mined transaction's parents must be mined no later: a real
/// Electrum server indexing the chain dies on anything else.
struct ChainLedger: Sendable {
    private(set) var transactions: [String: LedgerTransaction] = [:]
    private var spenders: [Outpoint: String] = [:]
    private var byScripthash: [String: Set<String>] = [:]
    /// Each block's transactions other than its coinbase, in block order.
    private var blocks: [Int: [String]] = [:]
    /// Each block's coinbase, by height.
    private(set) var coinbases: [Int: String] = [:]
    private(set) var mempool: Set<String> = []
    /// The outputs nothing spends (mined or in the mempool), by their script's Electrum scripthash.
    private(set) var unspentOutputs: [String: Set<Outpoint>] = [:]
    private var nextOrder: Int64 = 0
    /// The bytes of every transaction ever added, also once it has left the chain: a replaced
    /// block is still served by its hash, as a node keeps stale blocks.
    private(set) var archive: [String: [UInt8]] = [:]

    func transaction(_ txid: String) -> LedgerTransaction? { transactions[txid] }

    /// The output `outpoint` names, when its transaction is on the chain.
    func output(_ outpoint: Outpoint) -> RawTransaction.Output? {
        guard let transaction = transactions[outpoint.txid], transaction.raw.outputs.indices.contains(outpoint.vout) else { return nil }
        return transaction.raw.outputs[outpoint.vout]
    }

    /// The transaction (mined or in the mempool) that spends `outpoint`, if any.
    func spender(of outpoint: Outpoint) -> String? { spenders[outpoint] }

    /// The txids touching the script with Electrum scripthash `scripthash`.
    func txids(touching scripthash: String) -> Set<String> { byScripthash[scripthash] ?? [] }

    /// Block `height`'s transactions, coinbase first (when the ledger has it).
    func block(at height: Int) -> [LedgerTransaction] {
        let coinbase = coinbases[height].flatMap { transactions[$0] }.map { [$0] } ?? []
        return coinbase + (blocks[height] ?? []).compactMap { transactions[$0] }
    }

    /// The mempool's transactions in order of arrival (parents before children).
    var mempoolInOrder: [LedgerTransaction] {
        mempool.compactMap { transactions[$0] }.sorted { $0.order < $1.order }
    }

    /// Adds `raw`, mined at `height` or in the mempool, after checking that each input spends an
    /// unspent output of the chain mined no later.
    @discardableResult
    mutating func add(_ raw: RawTransaction, height: Int?) throws -> LedgerTransaction {
        guard let txid = raw.txid, let bytes = raw.serialized else { throw SimulatorError(.invalid, "a transaction input names a malformed txid") }
        guard transactions[txid] == nil else { throw SimulatorError(.conflict, "transaction \(txid) already exists") }
        let spends = raw.inputs.map { Outpoint(txid: $0.previousTxid, vout: Int($0.previousIndex)) }
        var spent: [RawTransaction.Output] = []
        var spentScripthashes: [String] = []
        for outpoint in spends {
            guard let output = output(outpoint), let parent = transactions[outpoint.txid] else { throw SimulatorError(.invalid, "\(outpoint) is not an output of the chain") }
            if let spender = spenders[outpoint] { throw SimulatorError(.conflict, "\(outpoint) is already spent by \(spender)") }
            if let height, let parentHeight = parent.height, parentHeight > height {
                throw SimulatorError(.conflict, "\(outpoint) is mined at height \(parentHeight), above \(height)")
            } else if height != nil, parent.height == nil {
                throw SimulatorError(.conflict, "\(outpoint) is in the mempool: a mined transaction cannot spend it")
            }
            spent.append(output)
            spentScripthashes.append(parent.outputScripthashes[outpoint.vout])
        }
        let fee = spent.reduce(0) { $0 + $1.value } - raw.outputs.reduce(0) { $0 + $1.value }
        guard fee >= 0 else { throw SimulatorError(.invalid, "transaction \(txid) pays more than it spends") }
        let outputScripthashes = raw.outputs.map { Script.electrumScripthash($0.scriptPubKey) }
        let transaction = LedgerTransaction(
            txid: txid, raw: raw, bytes: bytes, spends: spends, outputScripthashes: outputScripthashes,
            scripthashes: Self.unique(outputScripthashes + spentScripthashes), fee: fee, height: height, order: takeOrder())
        insert(transaction)
        return transaction
    }

    /// Adds block `height`'s coinbase (replacing none: remove the old one first).
    @discardableResult
    mutating func addCoinbase(_ raw: RawTransaction, height: Int) -> LedgerTransaction {
        let outputScripthashes = raw.outputs.map { Script.electrumScripthash($0.scriptPubKey) }
        let transaction = LedgerTransaction(
            txid: raw.txid ?? "", raw: raw, bytes: raw.serialized ?? [], spends: [], outputScripthashes: outputScripthashes,
            scripthashes: Self.unique(outputScripthashes), fee: 0, height: height, order: takeOrder())
        insert(transaction)
        return transaction
    }

    /// Mines `txid` at `height`, or returns it to the mempool (nil), when its parents and
    /// children allow: parents mined no later, children not mined earlier.
    mutating func move(_ txid: String, to height: Int?) throws {
        guard var transaction = transactions[txid], !transaction.isCoinbase else {
            throw SimulatorError(.notFound, "no transaction \(txid) that can move")
        }
        for outpoint in transaction.spends {
            guard let height else { break }
            guard let parentHeight = transactions[outpoint.txid]?.height else {
                throw SimulatorError(.conflict, "\(txid) spends \(outpoint.txid), which is in the mempool: mine that first")
            }
            if parentHeight > height { throw SimulatorError(.conflict, "\(txid) spends \(outpoint.txid), mined at height \(parentHeight)") }
        }
        for child in children(of: txid) {
            guard let childHeight = transactions[child]?.height else { continue }
            if height.map({ childHeight < $0 }) ?? true {
                throw SimulatorError(.conflict, "\(child), mined at height \(childHeight), spends \(txid)")
            }
        }
        unplace(transaction)
        transaction.height = height
        transactions[txid] = transaction
        place(transaction)
    }

    /// Removes `txid`, which nothing may spend any more (remove its descendants first).
    mutating func remove(_ txid: String) {
        guard let transaction = transactions.removeValue(forKey: txid) else { return }
        precondition(children(of: txid).isEmpty, "removing \(txid) while a transaction spends it")
        for outpoint in transaction.spends {
            spenders[outpoint] = nil
            if let parent = transactions[outpoint.txid] { unspentOutputs[parent.outputScripthashes[outpoint.vout], default: []].insert(outpoint) }
        }
        for (vout, scripthash) in transaction.outputScripthashes.enumerated() {
            unspentOutputs[scripthash]?.remove(Outpoint(txid: txid, vout: vout))
            if unspentOutputs[scripthash]?.isEmpty == true { unspentOutputs[scripthash] = nil }
        }
        for scripthash in transaction.scripthashes {
            byScripthash[scripthash]?.remove(txid)
            if byScripthash[scripthash]?.isEmpty == true { byScripthash[scripthash] = nil }
        }
        unplace(transaction)
    }

    /// The transactions spending outputs of `txid`.
    func children(of txid: String) -> [String] {
        guard let transaction = transactions[txid] else { return [] }
        return transaction.raw.outputs.indices.compactMap { spenders[Outpoint(txid: txid, vout: $0)] }
    }

    /// `txid`'s descendants (children, their children...), youngest first: the order to remove them in.
    func descendants(of txid: String) -> [String] {
        var found: Set<String> = []
        var queue = children(of: txid)
        while let next = queue.popLast() {
            guard found.insert(next).inserted else { continue }
            queue += children(of: next)
        }
        return found.compactMap { transactions[$0] }.sorted { $0.order > $1.order }.map(\.txid)
    }

    private mutating func takeOrder() -> Int64 {
        nextOrder += 1
        return nextOrder
    }

    private mutating func insert(_ transaction: LedgerTransaction) {
        transactions[transaction.txid] = transaction
        archive[transaction.txid] = transaction.bytes
        for outpoint in transaction.spends {
            spenders[outpoint] = transaction.txid
            if let parent = transactions[outpoint.txid] {
                let scripthash = parent.outputScripthashes[outpoint.vout]
                unspentOutputs[scripthash]?.remove(outpoint)
                if unspentOutputs[scripthash]?.isEmpty == true { unspentOutputs[scripthash] = nil }
            }
        }
        for (vout, scripthash) in transaction.outputScripthashes.enumerated() {
            unspentOutputs[scripthash, default: []].insert(Outpoint(txid: transaction.txid, vout: vout))
        }
        for scripthash in transaction.scripthashes { byScripthash[scripthash, default: []].insert(transaction.txid) }
        place(transaction)
    }

    /// Files the transaction under its block or the mempool.
    private mutating func place(_ transaction: LedgerTransaction) {
        guard let height = transaction.height else {
            mempool.insert(transaction.txid)
            return
        }
        if transaction.isCoinbase {
            coinbases[height] = transaction.txid
            return
        }
        var list = blocks[height] ?? []
        // Arrival order; a transaction mined late usually arrives last.
        let index = list.lastIndex { (transactions[$0]?.order ?? 0) < transaction.order }.map { $0 + 1 } ?? 0
        list.insert(transaction.txid, at: index)
        blocks[height] = list
    }

    private mutating func unplace(_ transaction: LedgerTransaction) {
        guard let height = transaction.height else {
            mempool.remove(transaction.txid)
            return
        }
        if transaction.isCoinbase {
            if coinbases[height] == transaction.txid { coinbases[height] = nil }
            return
        }
        blocks[height]?.removeAll { $0 == transaction.txid }
        if blocks[height]?.isEmpty == true { blocks[height] = nil }
    }

    private static func unique(_ scripthashes: [String]) -> [String] {
        var seen: Set<String> = []
        return scripthashes.filter { seen.insert($0).inserted }
    }
}
