import WalletWatchBitcoin

/// The simulated Bitcoin chain behind every face: what Esplora lists (``EsploraChain``, which
/// also holds transactions that cannot be real: made-up txids, generated histories) and the real
/// transactions (``ChainLedger``), which the Electrum and Core faces serve. Every change goes
/// through here so that both stay consistent.
///
/// With a scenario's `bitcoin` section the chain is real: blocks from the genesis block of
/// `network`, each with a coinbase paying the ``Faucet`` and the transactions mined at its height
/// (``BlockStore``); its tip can only rise (a reorg replaces blocks). Without it, blocks are
/// heights with made-up hashes, as Esplora has always served them.
struct SimulatedChain: Sendable {
    /// The network of the faucet's address and the subsidy's schedule.
    let network: Network
    /// Whether blocks are built from the genesis block (and the Electrum and Core faces serve them).
    let isReal: Bool
    let chainTime: ChainTime
    let faucet: Faucet
    private(set) var tip: Int
    /// Esplora's view: every stored transaction, real or not. Change it through the chain's methods.
    var esplora: EsploraChain
    /// The real transactions. Change them through the chain's methods.
    var ledger = ChainLedger()
    /// A real chain's headers, built when read.
    var blocks: BlockStore
    /// How many times each height's block was replaced by a reorg (0: never).
    private(set) var generations: [Int: UInt32] = [:]
    /// Block times set by confirmations that named one (real chains: the header's time).
    private(set) var blockTimes: [Int: Int64] = [:]
    /// Coinbases are in the ledger for heights 1...this (real chains; others add them when spent).
    private var coinbasesThrough = 0

    /// The highest tip a real chain may have: it is built block by block from genesis.
    static let realTipLimit = 20_000

    init(network: Network, isReal: Bool, tip: Int, chainTime: ChainTime) throws {
        guard tip >= 0 else { throw SimulatorError(.invalid, "tip_height must be >= 0") }
        if isReal, tip > Self.realTipLimit {
            throw SimulatorError(.invalid, "a real chain (the bitcoin section) is built from its genesis block: tip_height must be at most \(Self.realTipLimit)")
        }
        self.network = network
        self.isReal = isReal
        self.chainTime = chainTime
        self.tip = 0
        faucet = Faucet(network: network)
        esplora = EsploraChain(chainTime: chainTime)
        blocks = BlockStore(network: network)
        raiseTip(to: tip)
    }

    // MARK: adding

    /// Adds a transaction given in compact form. It is real (in blocks, served by the Electrum and
    /// Core faces) when it could be: every input spends an output of a real transaction with the
    /// value and address given, every output's address is a real one, and its txid is the hash of
    /// what it describes. Otherwise Esplora alone serves it, as before.
    mutating func add(_ spec: EsploraTxSpec) throws {
        if let raw = SimulatedTransaction.signed(spec), raw.txid == spec.txid, spendsRealOutputs(spec) {
            try addReal(spec, raw: raw)
        } else {
            if let height = spec.blockHeight { try checkHeight(height) }
            try esplora.add(spec)
            if let height = spec.blockHeight { raiseTip(to: height) }
        }
    }

    /// Adds `generator`'s history to Esplora (never real: its transactions are made up).
    mutating func addGenerator(_ generator: GeneratedAddressHistory) throws {
        try esplora.addGenerator(generator, baseTip: tip)
    }

    /// Builds the transaction spending `inputs` and paying `outputs` (the rest is the fee), adds
    /// it at `height` or to the mempool, and returns it as Esplora lists it.
    @discardableResult
    mutating func addPayment(spending inputs: [ChainCoin], paying outputs: [ChainOutput], height: Int?) throws -> EsploraTxSpec {
        guard let raw = SimulatedTransaction.signed(spending: inputs.map(\.outpoint), paying: outputs), let txid = raw.txid else {
            throw SimulatorError(.invalid, "an input names a malformed txid")
        }
        let spec = EsploraTxSpec(
            txid: txid, inputs: inputs.map { EsploraTxIO(address: $0.address, value: $0.value, txid: $0.outpoint.txid, vout: $0.outpoint.vout) },
            outputs: outputs.map(\.io), fee: inputs.reduce(0) { $0 + $1.value } - outputs.reduce(0) { $0 + $1.value }, blockHeight: height)
        try addReal(spec, raw: raw)
        return spec
    }

    private mutating func addReal(_ spec: EsploraTxSpec, raw: RawTransaction) throws {
        if let height = spec.blockHeight {
            try checkHeight(height)
            retireBlocks(from: height)
        }
        try ledger.add(raw, height: spec.blockHeight)
        try esplora.add(spec)
        if let height = spec.blockHeight { raiseTip(to: height) }
    }

    private func spendsRealOutputs(_ spec: EsploraTxSpec) -> Bool {
        spec.inputs.allSatisfy { input in
            guard let txid = input.txid, let vout = input.vout, let output = ledger.output(Outpoint(txid: txid, vout: vout)) else { return false }
            return output.value == input.value && OutputScript.decode(input.address) == output.scriptPubKey
        }
    }

    // MARK: changing

    /// Mines a stored transaction at `height` (a real one moves within the chain: its parents
    /// must be mined no later, its children no earlier). `time` sets the block's time.
    mutating func confirm(_ txid: String, height: Int, time: Int64?) throws {
        guard height >= 0 else { throw SimulatorError(.invalid, "a block height must be >= 0") }
        try checkHeight(height)
        if let transaction = ledger.transaction(txid) {
            retireBlocks(from: min(transaction.height ?? height, height))
            try ledger.move(txid, to: height)
            if isReal, let time { setBlockTime(time, at: height) }
        }
        try esplora.confirm(txid: txid, height: height, time: time)
        raiseTip(to: height)
    }

    /// Drops a mempool transaction (evicted, or replaced), with every mempool transaction that
    /// spends it; returns the txids dropped, the one asked for first.
    @discardableResult
    mutating func evict(_ txid: String) throws -> [String] {
        guard let transaction = ledger.transaction(txid) else {
            try esplora.evict(txid: txid)
            return [txid]
        }
        guard transaction.height == nil else {
            throw SimulatorError(.conflict, "transaction \(txid) is mined; only mempool transactions can be evicted")
        }
        let dropped = [txid] + ledger.descendants(of: txid)
        for victim in dropped.reversed() {
            ledger.remove(victim)
            try? esplora.evict(txid: victim)
        }
        return dropped
    }

    /// Mines every mempool transaction into the next block, then `count - 1` empty blocks more;
    /// returns the txids mined.
    mutating func mine(blocks count: Int) throws -> [String] {
        guard count >= 1 else { throw SimulatorError(.invalid, "blocks must be >= 1") }
        let height = tip + 1
        try checkHeight(tip + count)
        var mined: [String] = []
        for transaction in ledger.mempoolInOrder {
            try ledger.move(transaction.txid, to: height)
            mined.append(transaction.txid)
        }
        for txid in esplora.mempoolTxids {
            try esplora.confirm(txid: txid, height: height, time: nil)
            if ledger.transaction(txid) == nil { mined.append(txid) }
        }
        raiseTip(to: tip + count)
        return mined
    }

    /// Sets the tip. A real chain's tip only rises (use a reorg to replace blocks); otherwise it
    /// is any height, as Esplora's tip always was.
    mutating func setTip(_ height: Int) throws {
        guard height >= 0 else { throw SimulatorError(.invalid, "a tip height must be >= 0") }
        guard isReal else {
            tip = height
            return
        }
        guard height >= tip else {
            throw SimulatorError(.conflict, "a real chain's tip only rises (it is \(tip)): POST /control/chain/reorg replaces blocks")
        }
        try checkHeight(height)
        raiseTip(to: height)
    }

    /// Refuses heights a real chain cannot have: block 0 is the genesis block, and the chain is
    /// built from it.
    func checkHeight(_ height: Int) throws {
        guard isReal else { return }
        guard height >= 1 else { throw SimulatorError(.invalid, "block 0 is the genesis block: nothing else is mined there") }
        guard height <= Self.realTipLimit else { throw SimulatorError(.invalid, "a real chain's height is at most \(Self.realTipLimit)") }
    }

    mutating func raiseTip(to height: Int) {
        guard height > tip else { return }
        tip = height
        if isReal { addCoinbases(through: height) }
    }

    /// Puts blocks 1...height's coinbases in the ledger (those it lacks).
    mutating func addCoinbases(through height: Int) {
        while coinbasesThrough < height {
            coinbasesThrough += 1
            addCoinbase(at: coinbasesThrough)
        }
    }

    /// Block `height`'s coinbase, added to the ledger if it is not there yet; its txid.
    @discardableResult
    mutating func addCoinbase(at height: Int) -> String {
        if let txid = ledger.coinbases[height] { return txid }
        let raw = Coinbase.transaction(height: height, generation: generations[height] ?? 0, paying: faucet.script, network: network)
        return ledger.addCoinbase(raw, height: height).txid
    }

    /// Sets the time of block `height` (a real chain's header time).
    mutating func setBlockTime(_ time: Int64, at height: Int) {
        retireBlocks(from: height)
        blockTimes[height] = time
    }

    /// Cuts the chain below `fork` for a reorg, once its headers are retired and its transactions
    /// moved out: blocks from `fork` up lose their coinbases, their set times and their hashes
    /// (their next generation gets new ones); `raiseTip` then makes the new blocks.
    mutating func cut(below fork: Int) {
        for height in fork...max(fork, tip) {
            if let old = ledger.coinbases[height] { ledger.remove(old) }
            generations[height, default: 0] += 1
            blockTimes[height] = nil
        }
        tip = fork - 1
        coinbasesThrough = min(coinbasesThrough, fork - 1)
    }
}
