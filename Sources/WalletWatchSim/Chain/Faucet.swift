import WalletWatchBitcoin

/// The simulator's own money: every coinbase pays the faucet's script, and every payment the
/// simulator makes (to any address, to an HD wallet) spends faucet coins and sends its change
/// back there. Its key is nobody's; it is a P2WPKH script like any wallet's.
struct Faucet: Sendable {
    /// The faucet's scriptPubKey (P2WPKH).
    let script: [UInt8]
    /// Its address on the chain's network.
    let address: String
    /// Its Electrum scripthash.
    let scripthash: String

    /// The faucet of a chain on `network`.
    init(network: Network) {
        var random = DeterministicRandom(seed: Fingerprint.of("walletwatch-sim faucet"))
        let key = [0x02] + (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        script = Script.p2wpkh(publicKey: key)
        address = Address(scriptPubKey: script, network: network)?.description ?? ""
        scripthash = Script.electrumScripthash(script)
    }

    /// A P2WPKH-sized fee at about 1 sat/vB.
    static func fee(inputs: Int, outputs: Int) -> Int64 {
        Int64(11 + 68 * max(1, inputs) + 31 * outputs)
    }

    /// Outputs below this many sats are dust: the faucet never leaves such change.
    static let dust: Int64 = 546
}

/// An output a simulated payment spends: where it is, its value and its address (as Esplora
/// shows the input).
struct ChainCoin: Sendable, Hashable {
    let outpoint: Outpoint
    let value: Int64
    let address: String
}

/// An output a simulated payment pays: its address (as Esplora shows it), value and script.
struct ChainOutput: Sendable, Hashable {
    let address: String
    let value: Int64
    let script: [UInt8]

    /// `output`'s address decoded (any network); nil when it is not an address.
    init?(_ output: EsploraTxIO) {
        guard let script = OutputScript.decode(output.address) else { return nil }
        self.init(address: output.address, value: output.value, script: script)
    }

    init(address: String, value: Int64, script: [UInt8]) {
        self.address = address
        self.value = value
        self.script = script
    }

    var io: EsploraTxIO { EsploraTxIO(address: address, value: value) }
}
