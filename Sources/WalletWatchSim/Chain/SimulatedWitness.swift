/// The witness the simulator gives each input: a signature-shaped item and a compressed-key-shaped
/// one, as a P2WPKH spend carries. Nobody checks the signatures (ElectrumX does not, nor does
/// walletwatch); parsers and sizes see an ordinary segwit spend. Esplora's `vin[].witness` and
/// the raw bytes served to Electrum clients hold the same items.
enum SimulatedWitness {
    /// Input `index`'s witness items of transaction `txid`, as hex.
    static func items(txid: String, input index: Int) -> [String] {
        var random = DeterministicRandom(seed: Fingerprint.of(txid), index: UInt64(index), salt: 7)
        return ["304402" + random.hex(128) + "01", "02" + random.hex(64)]
    }
}
