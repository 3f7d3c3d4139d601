/// The simulated chain as Esplora shows it: stored transactions (mempool or confirmed), the
/// generated address histories, and per-address listings with Esplora's paging.
struct EsploraChain: Sendable {
    /// Esplora's page sizes (electrs: MAX_MEMPOOL_TXS = 50, CHAIN_TXS_PER_PAGE = 25).
    static let mempoolLimit = 50
    static let chainPageSize = 25

    private(set) var transactions: [String: StoredTransaction] = [:]
    private var byAddress: [String: [String]] = [:]
    /// Esplora's script keys (`/scripthash/:hash`) of every address the chain knows.
    private var addressByScripthash: [String: String] = [:]
    private(set) var generators: [String: AddressHistoryGenerator] = [:]
    private var nextOrder: Int64 = 0
    let chainTime: ChainTime

    /// A stored transaction and the order it was added in (later = newer within a block).
    struct StoredTransaction: Sendable {
        var transaction: EsploraTxSpec
        let order: Int64
    }

    init(chainTime: ChainTime) {
        self.chainTime = chainTime
    }

    mutating func addGenerator(_ request: GeneratedAddressHistory, baseTip: Int) throws {
        guard generators[request.address] == nil else {
            throw SimulatorError(.conflict, "address \(request.address) already has a generated history")
        }
        guard request.count >= 0 else { throw SimulatorError(.invalid, "a generated history needs a count >= 0") }
        generators[request.address] = AddressHistoryGenerator(request, baseTip: baseTip, chainTime: chainTime)
        addressByScripthash[OutputScript.scripthash(of: request.address)] = request.address
    }

    mutating func add(_ transaction: EsploraTxSpec) throws {
        guard transaction.txid.count == 64, transaction.txid.allSatisfy(\.isHexDigit) else {
            throw SimulatorError(.invalid, "txid must be 64 hex digits: \(transaction.txid)")
        }
        guard lookup(transaction.txid) == nil else {
            throw SimulatorError(.conflict, "transaction \(transaction.txid) already exists")
        }
        guard !transaction.outputs.isEmpty else { throw SimulatorError(.invalid, "a transaction needs an output") }
        // Esplora orders by order of arrival; generated histories sort below anything added.
        nextOrder += 1
        transactions[transaction.txid] = StoredTransaction(transaction: transaction, order: (1 << 40) + nextOrder)
        for address in Set(transaction.inputs.map(\.address) + transaction.outputs.map(\.address)) {
            if byAddress[address] == nil { addressByScripthash[OutputScript.scripthash(of: address)] = address }
            byAddress[address, default: []].append(transaction.txid)
        }
    }

    /// The address whose script has Esplora key `scripthash`, when the chain knows one.
    func address(ofScripthash scripthash: String) -> String? {
        addressByScripthash[scripthash]
    }

    mutating func confirm(txid: String, height: Int, time: Int64?) throws {
        guard var stored = transactions[txid] else {
            throw SimulatorError(.notFound, "no stored Esplora transaction \(txid)")
        }
        stored.transaction.blockHeight = height
        stored.transaction.blockTime = time ?? chainTime.time(ofHeight: height)
        transactions[txid] = stored
    }

    /// Returns a mined transaction to the mempool (its block was reorganised away).
    mutating func unconfirm(txid: String) throws {
        guard var stored = transactions[txid] else { throw SimulatorError(.notFound, "no stored Esplora transaction \(txid)") }
        stored.transaction.blockHeight = nil
        stored.transaction.blockTime = nil
        transactions[txid] = stored
    }

    /// The stored transactions in the mempool, in order of arrival.
    var mempoolTxids: [String] {
        transactions.values.filter { $0.transaction.blockHeight == nil }.sorted { $0.order < $1.order }.map(\.transaction.txid)
    }

    /// The stored transactions mined at heights in `heights`, by height and arrival.
    func minedTxids(in heights: ClosedRange<Int>) -> [String] {
        transactions.values.compactMap { stored in stored.transaction.blockHeight.map { (ConfirmedKey(height: $0, order: stored.order), stored.transaction.txid) } }
            .filter { heights.contains($0.0.height) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Drops a mempool transaction, as when it is evicted or replaced (RBF). Mined ones stay.
    mutating func evict(txid: String) throws {
        guard let stored = transactions[txid] else { throw SimulatorError(.notFound, "no stored Esplora transaction \(txid)") }
        guard stored.transaction.blockHeight == nil else {
            throw SimulatorError(.conflict, "transaction \(txid) is mined; only mempool transactions can be evicted")
        }
        transactions[txid] = nil
        for address in Set(stored.transaction.inputs.map(\.address) + stored.transaction.outputs.map(\.address)) {
            byAddress[address]?.removeAll { $0 == txid }
        }
    }

    /// A stored or generated transaction.
    func lookup(_ txid: String) -> EsploraTxSpec? {
        if let stored = transactions[txid] { return stored.transaction }
        for generator in generators.values {
            if let j = generator.index(of: txid) { return generator.transaction(j) }
        }
        return nil
    }

    /// Everything Esplora knows about one address, ready for listing and paging.
    func history(of address: String) -> AddressHistory {
        var mempool: [StoredTransaction] = []
        var confirmed: [AddressHistory.Confirmed] = []
        for txid in byAddress[address] ?? [] {
            guard let stored = transactions[txid] else { continue }
            if let height = stored.transaction.blockHeight {
                confirmed.append(.init(key: ConfirmedKey(height: height, order: stored.order), transaction: stored.transaction))
            } else {
                mempool.append(stored)
            }
        }
        return AddressHistory(
            address: address,
            mempool: mempool.sorted { $0.order > $1.order }.map(\.transaction),
            confirmed: confirmed.sorted { $0.key > $1.key },
            generator: generators[address])
    }
}

/// One address's transactions at one moment: mempool newest first, confirmed newest first
/// (stored ones merged with the generated history).
struct AddressHistory: Sendable {
    /// A stored confirmed transaction and where it sorts.
    struct Confirmed: Sendable {
        let key: ConfirmedKey
        let transaction: EsploraTxSpec
    }

    let address: String
    let mempool: [EsploraTxSpec]
    let confirmed: [Confirmed]
    let generator: AddressHistoryGenerator?

    var chainStats: AddressStats {
        var stats = generator?.stats ?? AddressStats()
        for entry in confirmed { stats.add(entry.transaction, for: address) }
        return stats
    }

    var mempoolStats: AddressStats {
        var stats = AddressStats()
        for tx in mempool { stats.add(tx, for: address) }
        return stats
    }

    /// The ordering key of a confirmed transaction of this address, or nil when it has none.
    func key(of txid: String) -> ConfirmedKey? {
        if let found = confirmed.first(where: { $0.transaction.txid == txid }) { return found.key }
        if let generator, let j = generator.index(of: txid) { return generator.key(j) }
        return nil
    }

    /// Up to `limit` confirmed transactions older than `key` (the newest when nil), newest first.
    func confirmedPage(before key: ConfirmedKey?, limit: Int) -> [EsploraTxSpec] {
        var stored = confirmed.lazy.filter { entry in key.map { entry.key < $0 } ?? true }.makeIterator()
        var nextStored = stored.next()
        var nextGenerated = (generator?.countBefore(key) ?? 0) - 1
        var page: [EsploraTxSpec] = []
        while page.count < limit {
            // The newer of the next stored and the next generated transaction goes first.
            if let generator, nextGenerated >= 0, nextStored.map({ generator.key(nextGenerated) > $0.key }) ?? true {
                page.append(generator.transaction(nextGenerated))
                nextGenerated -= 1
            } else if let entry = nextStored {
                page.append(entry.transaction)
                nextStored = stored.next()
            } else {
                break
            }
        }
        return page
    }
}
