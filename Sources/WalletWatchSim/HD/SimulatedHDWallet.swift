import WalletWatchBitcoin

/// A running HD wallet of the simulated chain: derives its addresses, makes its deposits and
/// spends as real transactions, and remembers its unspent outputs so that a spend spends them.
struct SimulatedHDWallet: Sendable {
    /// One of the wallet's unspent outputs.
    struct Coin: Sendable, Hashable {
        let txid: String
        let vout: Int
        let value: Int64
        let address: String
    }

    let name: String
    let wallet: HDWallet
    private var random: DeterministicRandom
    /// Oldest first: spends take from the front.
    private(set) var coins: [Coin] = []

    /// Derivation goes through `HDWallet`, which costs a CKDpub per key; scenarios reuse addresses.
    private var addresses: [HDWallet.Chain: [Int: String]] = [:]

    init(name: String, wallet: HDWallet, seed: UInt64) {
        self.name = name
        self.wallet = wallet
        random = DeterministicRandom(seed: seed, index: 0, salt: Fingerprint.of("hd:" + name))
    }

    /// The wallet of `scenario` and its history: deposit k, then spend k, one block each, the
    /// last one block below `tip`; then the mempool deposits.
    static func make(_ scenario: HDWalletScenario, tip: Int) throws -> (SimulatedHDWallet, [EsploraTxSpec]) {
        var wallet = SimulatedHDWallet(name: scenario.name, wallet: try scenario.wallet(), seed: scenario.seed)
        let events = scenario.receive.count + scenario.change.count
        var height = max(1, tip - events)
        var transactions: [EsploraTxSpec] = []
        for step in 0..<max(scenario.receive.count, scenario.change.count) {
            if step < scenario.receive.count {
                transactions.append(try wallet.deposit(chain: .receive, index: scenario.receive[step], value: nil, height: height))
                height = min(tip, height + 1)
            }
            if step < scenario.change.count {
                transactions.append(try wallet.spend(pay: nil, changeIndex: scenario.change[step], height: height))
                height = min(tip, height + 1)
            }
        }
        for index in scenario.mempoolReceive {
            transactions.append(try wallet.deposit(chain: .receive, index: index, value: nil, height: nil))
        }
        return (wallet, transactions)
    }

    /// The address at `index` of `chain`.
    mutating func address(_ chain: HDWallet.Chain, _ index: Int) throws -> String {
        if let known = addresses[chain]?[index] { return known }
        guard index >= 0, index < Int(ExtendedPublicKey.hardenedOffset) else {
            throw SimulatorError(.invalid, "HD wallet \(name): index \(index) is not 0 to 2^31-1")
        }
        guard chain == .receive || wallet.hasChangeChain else {
            throw SimulatorError(.invalid, "HD wallet \(name) has no change chain")
        }
        do {
            let address = try wallet.address(chain: chain, index: UInt32(index))
            addresses[chain, default: [:]][index] = address
            return address
        } catch {
            throw SimulatorError(.invalid, "HD wallet \(name): \(chain) index \(index): \(error)")
        }
    }

    /// A payment from outside to `index` of `chain` (of `value` sats, else a random amount),
    /// mined at `height` or in the mempool.
    mutating func deposit(chain: HDWallet.Chain, index: Int, value: Int64?, height: Int?) throws -> EsploraTxSpec {
        let address = try address(chain, index)
        let amount = value ?? random.logAmount(50_000, 5_000_000)
        guard amount > 0 else { throw SimulatorError(.invalid, "a deposit needs a value above 0") }
        let fee = Self.fee(inputs: 1, outputs: 2)
        let funding = EsploraTxIO(address: outsideAddress(), value: amount + fee + random.int(in: 0...50_000),
                                  txid: random.hex(64), vout: Int(random.int(in: 0...3)))
        let outputs = [EsploraTxIO(address: address, value: amount), EsploraTxIO(address: outsideAddress(), value: funding.value - amount - fee)]
        return try finish(EsploraTxSpec(txid: "", inputs: [funding], outputs: outputs, fee: fee, blockHeight: height))
    }

    /// A payment of `pay` sats to someone outside (half of the oldest coin when nil; 0 pays no
    /// one: everything goes to the change address, a transfer to the wallet itself), with the
    /// change to `changeIndex` of the change chain, from the oldest coins that cover it.
    mutating func spend(pay: Int64?, changeIndex: Int, height: Int?) throws -> EsploraTxSpec {
        let changeAddress = try address(.change, changeIndex)
        guard let first = coins.first else { throw SimulatorError(.conflict, "HD wallet \(name) has no coins to spend") }
        let amount = pay ?? first.value / 2
        guard amount >= 0 else { throw SimulatorError(.invalid, "a spend pays 0 sats or more") }
        var inputs: [Coin] = []
        var total: Int64 = 0
        let outputCount = amount > 0 ? 2 : 1
        while total < amount + Self.fee(inputs: inputs.count, outputs: outputCount) + 1_000 {
            guard !coins.isEmpty else {
                throw SimulatorError(.conflict, "HD wallet \(name) holds \(total) sats, not enough to pay \(amount) and a fee")
            }
            let coin = coins.removeFirst()
            inputs.append(coin)
            total += coin.value
        }
        let fee = Self.fee(inputs: inputs.count, outputs: outputCount)
        var outputs = [EsploraTxIO]()
        if amount > 0 { outputs.append(EsploraTxIO(address: outsideAddress(), value: amount)) }
        outputs.append(EsploraTxIO(address: changeAddress, value: total - amount - fee))
        let spec = EsploraTxSpec(
            txid: "", inputs: inputs.map { EsploraTxIO(address: $0.address, value: $0.value, txid: $0.txid, vout: $0.vout) },
            outputs: outputs, fee: fee, blockHeight: height)
        return try finish(spec)
    }

    /// Gives `spec` its real txid and keeps its outputs to the wallet as coins.
    private mutating func finish(_ spec: EsploraTxSpec) throws -> EsploraTxSpec {
        var spec = spec
        guard let txid = EsploraTransaction.computedTxid(of: spec) else {
            throw SimulatorError(.invalid, "HD wallet \(name): a transaction without a txid")
        }
        spec.txid = txid
        let own = Set(addresses.values.flatMap(\.values))
        for (vout, output) in spec.outputs.enumerated() where own.contains(output.address) {
            coins.append(Coin(txid: txid, vout: vout, value: output.value, address: output.address))
        }
        return spec
    }

    /// A P2WPKH address of nobody in particular, on the wallet's network.
    private mutating func outsideAddress() -> String {
        let key = [0x02] + (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return Address(scriptPubKey: Script.p2wpkh(publicKey: key), network: wallet.network)?.description ?? ""
    }

    /// A P2WPKH-sized fee at about 1 sat/vB.
    static func fee(inputs: Int, outputs: Int) -> Int64 {
        Int64(11 + 68 * max(1, inputs) + 31 * outputs)
    }
}
