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

    /// Whether `address` is paid by an output or spent by an input.
    func touches(_ address: String) -> Bool {
        outputs.contains { $0.address == address } || inputs.contains { $0.address == address }
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

/// Writes the Esplora JSON of a transaction, field order as electrs writes it.
struct EsploraTxJSON: JSONWritable {
    let transaction: EsploraTxSpec
    /// The block time to use when the transaction does not carry its own.
    let blockTime: (Int) -> Int64

    func writeJSON(to out: inout JSONBuffer) {
        let tx = transaction
        let inputs = tx.effectiveInputs
        // P2WPKH-shaped sizes: 41 bytes per input and 31 per output outside the witness,
        // 108 per input inside it.
        let base = 10 + 41 * inputs.count + 31 * tx.outputs.count
        let witness = 2 + 108 * inputs.count
        out.beginObject()
        out.field("txid", tx.txid)
        out.field("version", 2)
        out.field("locktime", 0)
        out.key("vin")
        out.beginArray()
        for (index, input) in inputs.enumerated() {
            var random = DeterministicRandom(seed: Fingerprint.of(tx.txid), index: UInt64(index), salt: 7)
            out.beginObject()
            out.field("txid", input.txid ?? Fingerprint.hash256("prev:\(tx.txid):\(index)"))
            out.field("vout", input.vout ?? index % 2)
            out.key("prevout")
            ScriptOutput(address: input.address, value: input.value).writeJSON(to: &out)
            out.field("scriptsig", "")
            out.field("scriptsig_asm", "")
            out.field(
                "witness",
                strings: ["304402" + random.hex(128) + "01", "02" + random.hex(64)])
            out.field("is_coinbase", false)
            out.field("sequence", 4_294_967_293)
            out.endObject()
        }
        out.endArray()
        out.key("vout")
        out.beginArray()
        for output in tx.outputs { ScriptOutput(address: output.address, value: output.value).writeJSON(to: &out) }
        out.endArray()
        out.field("size", base + witness)
        out.field("weight", base * 4 + witness)
        out.field("fee", tx.fee)
        out.key("status")
        out.beginObject()
        if let height = tx.blockHeight {
            out.field("confirmed", true)
            out.field("block_height", height)
            out.field("block_hash", Fingerprint.blockHash(height: height))
            out.field("block_time", tx.blockTime ?? blockTime(height))
        } else {
            out.field("confirmed", false)
        }
        out.endObject()
        out.endObject()
    }
}

/// An output's script fields, derived from the address's kind (bech32 v0/v1, P2PKH, P2SH).
/// The script bytes are stable per address but not decoded from it.
struct ScriptOutput: JSONWritable {
    let address: String
    let value: Int64

    func writeJSON(to out: inout JSONBuffer) {
        let hash40 = String(Fingerprint.hash256("spk:" + address).prefix(40))
        let hash64 = Fingerprint.hash256("spk32:" + address)
        let lower = address.lowercased()
        let script: (hex: String, asm: String, type: String)
        if lower.hasPrefix("bc1p") || lower.hasPrefix("tb1p") || lower.hasPrefix("bcrt1p") {
            script = ("5120" + hash64, "OP_PUSHNUM_1 OP_PUSHBYTES_32 " + hash64, "v1_p2tr")
        } else if (lower.hasPrefix("bc1q") || lower.hasPrefix("tb1q") || lower.hasPrefix("bcrt1q")) && address.count > 50 {
            script = ("0020" + hash64, "OP_0 OP_PUSHBYTES_32 " + hash64, "v0_p2wsh")
        } else if address.hasPrefix("1") || address.hasPrefix("m") || address.hasPrefix("n") {
            script = ("76a914" + hash40 + "88ac", "OP_DUP OP_HASH160 OP_PUSHBYTES_20 " + hash40 + " OP_EQUALVERIFY OP_CHECKSIG", "p2pkh")
        } else if address.hasPrefix("3") || address.hasPrefix("2") {
            script = ("a914" + hash40 + "87", "OP_HASH160 OP_PUSHBYTES_20 " + hash40 + " OP_EQUAL", "p2sh")
        } else {
            script = ("0014" + hash40, "OP_0 OP_PUSHBYTES_20 " + hash40, "v0_p2wpkh")
        }
        out.beginObject()
        out.field("scriptpubkey", script.hex)
        out.field("scriptpubkey_asm", script.asm)
        out.field("scriptpubkey_type", script.type)
        out.field("scriptpubkey_address", address)
        out.field("value", value)
        out.endObject()
    }
}
