/// A transaction as Esplora (electrs) serves it, expanded from the compact ``EsploraTxSpec``
/// with scripts, witnesses, size and weight; field order as electrs writes them.
struct EsploraTransaction: Encodable, Sendable {
    /// An input with the output it spends.
    struct Input: Encodable, Sendable {
        var txid: String
        var vout: Int
        var prevout: Output
        var scriptsig = ""
        var scriptsigAsm = ""
        var witness: [String]
        var isCoinbase = false
        var sequence: Int64 = 4_294_967_293

        private enum CodingKeys: String, CodingKey {
            case txid, vout, prevout, scriptsig, scriptsigAsm = "scriptsig_asm", witness, isCoinbase = "is_coinbase", sequence
        }
    }

    /// An output: its script (see ``OutputScript``) and its value.
    struct Output: Encodable, Sendable {
        var scriptpubkey: String
        var scriptpubkeyAsm: String
        var scriptpubkeyType: String
        var scriptpubkeyAddress: String
        var value: Int64

        private enum CodingKeys: String, CodingKey {
            case scriptpubkey, scriptpubkeyAsm = "scriptpubkey_asm", scriptpubkeyType = "scriptpubkey_type"
            case scriptpubkeyAddress = "scriptpubkey_address", value
        }

        init(address: String, value: Int64) {
            let script = OutputScript(address: address)
            scriptpubkey = script.hex
            scriptpubkeyAsm = script.asm
            scriptpubkeyType = script.type
            scriptpubkeyAddress = address
            self.value = value
        }
    }

    /// Where the transaction was mined; only `confirmed: false` while in the mempool.
    struct Status: Encodable, Sendable {
        var confirmed: Bool
        var blockHeight: Int?
        var blockHash: String?
        var blockTime: Int64?

        private enum CodingKeys: String, CodingKey {
            case confirmed, blockHeight = "block_height", blockHash = "block_hash", blockTime = "block_time"
        }
    }

    var txid: String
    var version = 2
    var locktime = 0
    var vin: [Input]
    var vout: [Output]
    var size: Int
    var weight: Int
    var fee: Int64
    var status: Status

    /// `spec` expanded; `stamp` is its block (nil in the mempool).
    init(_ spec: EsploraTxSpec, stamp: BlockStamp?) {
        let inputs = spec.effectiveInputs
        // P2WPKH-shaped sizes: 41 bytes per input and 31 per output outside the witness,
        // 108 per input inside it.
        let base = 10 + 41 * inputs.count + 31 * spec.outputs.count
        let witness = 2 + 108 * inputs.count
        txid = spec.txid
        vin = inputs.enumerated().map { index, input in
            let spent = Self.spentOutput(of: input, at: index, in: spec)
            return Input(
                txid: spent.txid, vout: spent.vout, prevout: Output(address: input.address, value: input.value),
                witness: SimulatedWitness.items(txid: spec.txid, input: index))
        }
        vout = spec.outputs.map { Output(address: $0.address, value: $0.value) }
        size = base + witness
        weight = base * 4 + witness
        fee = spec.fee
        status = Status(confirmed: spec.blockHeight != nil, blockHeight: spec.blockHeight, blockHash: stamp?.hash, blockTime: stamp?.time)
    }

    private enum CodingKeys: String, CodingKey { case txid, version, locktime, vin, vout, size, weight, fee, status }

    /// The output an input spends: as given, or a stable made-up one.
    static func spentOutput(of input: EsploraTxIO, at index: Int, in spec: EsploraTxSpec) -> (txid: String, vout: Int) {
        (input.txid ?? Fingerprint.hash256("prev:\(spec.txid):\(index)"), input.vout ?? index % 2)
    }

    /// The real txid of the transaction the simulator serves for `spec` (see
    /// ``SimulatedTransaction``): the double SHA-256 that a wallet checking txids computes. Only
    /// defined when every input names the output it spends (a made-up input depends on the txid
    /// itself).
    static func computedTxid(of spec: EsploraTxSpec) -> String? {
        SimulatedTransaction.unsigned(spec)?.txid
    }
}
