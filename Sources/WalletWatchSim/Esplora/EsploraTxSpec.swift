/// A transaction in compact form: who paid whom how much. The simulator expands it into the
/// full Esplora (Blockstream/mempool.space) JSON with scripts, witnesses, size and weight.
/// No block height means the transaction is in the mempool.
public struct EsploraTxSpec: Sendable, Hashable, Codable {
    /// The transaction id (64 hex digits).
    public var txid: String
    /// Spent outputs; empty means one input from an unrelated address worth the outputs plus the fee.
    public var inputs: [EsploraTxIO]
    /// The outputs: addresses paid and amounts.
    public var outputs: [EsploraTxIO]
    /// The fee in sats.
    public var fee: Int64
    /// The block it was mined in; nil while in the mempool.
    public var blockHeight: Int?
    /// Unix seconds; defaults to the simulated chain's time for `blockHeight`.
    public var blockTime: Int64?

    /// A compact transaction; no block height puts it in the mempool.
    public init(
        txid: String, inputs: [EsploraTxIO] = [], outputs: [EsploraTxIO], fee: Int64 = 141,
        blockHeight: Int? = nil, blockTime: Int64? = nil
    ) {
        self.txid = txid
        self.inputs = inputs
        self.outputs = outputs
        self.fee = fee
        self.blockHeight = blockHeight
        self.blockTime = blockTime
    }

    /// Whether the transaction is in a block.
    public var isConfirmed: Bool { blockHeight != nil }

    private enum CodingKeys: String, CodingKey {
        case txid, inputs, outputs, fee, blockHeight = "block_height", blockTime = "block_time"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            txid: try c.decode(String.self, forKey: .txid),
            inputs: try c.decodeIfPresent([EsploraTxIO].self, forKey: .inputs) ?? [],
            outputs: try c.decode([EsploraTxIO].self, forKey: .outputs),
            fee: try c.decodeIfPresent(Int64.self, forKey: .fee) ?? 141,
            blockHeight: try c.decodeIfPresent(Int.self, forKey: .blockHeight),
            blockTime: try c.decodeIfPresent(Int64.self, forKey: .blockTime))
    }

    /// The inputs actually served: the given ones, or a synthetic funding input.
    var effectiveInputs: [EsploraTxIO] {
        if !inputs.isEmpty { return inputs }
        let total = outputs.reduce(0) { $0 + $1.value } + fee
        var random = DeterministicRandom(seed: Fingerprint.of("funding:" + txid))
        return [EsploraTxIO(address: "bc1q" + random.bech32(38), value: total)]
    }
}

/// One input or output of an ``EsploraTxSpec``: an address and a value in sats. An input
/// may name the output it spends (`txid`, `vout`); otherwise a stable one is made up.
public struct EsploraTxIO: Sendable, Hashable, Codable {
    /// The address paid or spent from.
    public var address: String
    /// Sats.
    public var value: Int64
    /// The spent output's transaction (inputs only).
    public var txid: String?
    /// The spent output's index (inputs only).
    public var vout: Int?

    /// An input or output.
    public init(address: String, value: Int64, txid: String? = nil, vout: Int? = nil) {
        self.address = address
        self.value = value
        self.txid = txid
        self.vout = vout
    }
}
