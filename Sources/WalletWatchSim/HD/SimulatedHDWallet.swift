import WalletWatchBitcoin

/// A running HD wallet of the simulated chain: derives its addresses (remembering the ones it
/// used, whose outputs are its coins) and draws its amounts from its seed. The chain
/// (``SimulatedChain``) makes its deposits and spends as real transactions.
struct SimulatedHDWallet: Sendable {
    let name: String
    let wallet: HDWallet
    private var random: DeterministicRandom

    /// Derivation goes through `HDWallet`, which costs a CKDpub per key; scenarios reuse addresses.
    private var derived: [HDWallet.Chain: [Int: ChainOutput]] = [:]
    /// The addresses derived so far by their scripts' Electrum scripthashes: the scripts whose
    /// outputs are the wallet's coins.
    private(set) var scripthashes: [String: String] = [:]

    init(name: String, wallet: HDWallet, seed: UInt64) {
        self.name = name
        self.wallet = wallet
        random = DeterministicRandom(seed: seed, index: 0, salt: Fingerprint.of("hd:" + name))
    }

    /// The address at `index` of `chain`.
    mutating func address(_ chain: HDWallet.Chain, _ index: Int) throws -> String {
        try output(chain, index, value: 0).address
    }

    /// An output of `value` sats to the address at `index` of `chain`.
    mutating func output(_ chain: HDWallet.Chain, _ index: Int, value: Int64) throws -> ChainOutput {
        if let known = derived[chain]?[index] { return ChainOutput(address: known.address, value: value, script: known.script) }
        guard index >= 0, index < Int(ExtendedPublicKey.hardenedOffset) else {
            throw SimulatorError(.invalid, "HD wallet \(name): index \(index) is not 0 to 2^31-1")
        }
        guard chain == .receive || wallet.hasChangeChain else {
            throw SimulatorError(.invalid, "HD wallet \(name) has no change chain")
        }
        do {
            let script = try wallet.scriptPubKey(chain: chain, index: UInt32(index))
            let address = Address(scriptPubKey: script, network: wallet.network)?.description ?? ""
            derived[chain, default: [:]][index] = ChainOutput(address: address, value: 0, script: script)
            scripthashes[Script.electrumScripthash(script)] = address
            return ChainOutput(address: address, value: value, script: script)
        } catch {
            throw SimulatorError(.invalid, "HD wallet \(name): \(chain) index \(index): \(error)")
        }
    }

    /// A deposit's amount: `value`, else one drawn from the seed (50,000 to 5,000,000 sats).
    mutating func depositAmount(_ value: Int64?) throws -> Int64 {
        let amount = value ?? random.logAmount(50_000, 5_000_000)
        guard amount > 0 else { throw SimulatorError(.invalid, "a deposit needs a value above 0") }
        return amount
    }

    /// An output of `value` sats to a P2WPKH address of nobody in particular, on the wallet's network.
    mutating func outsideOutput(value: Int64) -> ChainOutput {
        let key = [0x02] + (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let script = Script.p2wpkh(publicKey: key)
        return ChainOutput(address: Address(scriptPubKey: script, network: wallet.network)?.description ?? "", value: value, script: script)
    }
}
