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

    /// An output: its script, derived from the address's kind (bech32 v0/v1, P2PKH, P2SH), and
    /// its value. The script bytes are stable per address but not decoded from it.
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
            let hash40 = String(Fingerprint.hash256("spk:" + address).prefix(40))
            let hash64 = Fingerprint.hash256("spk32:" + address)
            let lower = address.lowercased()
            if lower.hasPrefix("bc1p") || lower.hasPrefix("tb1p") || lower.hasPrefix("bcrt1p") {
                scriptpubkeyType = "v1_p2tr"
                scriptpubkey = "5120" + hash64
                scriptpubkeyAsm = "OP_PUSHNUM_1 OP_PUSHBYTES_32 " + hash64
            } else if (lower.hasPrefix("bc1q") || lower.hasPrefix("tb1q") || lower.hasPrefix("bcrt1q")) && address.count > 50 {
                scriptpubkeyType = "v0_p2wsh"
                scriptpubkey = "0020" + hash64
                scriptpubkeyAsm = "OP_0 OP_PUSHBYTES_32 " + hash64
            } else if address.hasPrefix("1") || address.hasPrefix("m") || address.hasPrefix("n") {
                scriptpubkeyType = "p2pkh"
                scriptpubkey = "76a914" + hash40 + "88ac"
                scriptpubkeyAsm = "OP_DUP OP_HASH160 OP_PUSHBYTES_20 " + hash40 + " OP_EQUALVERIFY OP_CHECKSIG"
            } else if address.hasPrefix("3") || address.hasPrefix("2") {
                scriptpubkeyType = "p2sh"
                scriptpubkey = "a914" + hash40 + "87"
                scriptpubkeyAsm = "OP_HASH160 OP_PUSHBYTES_20 " + hash40 + " OP_EQUAL"
            } else {
                scriptpubkeyType = "v0_p2wpkh"
                scriptpubkey = "0014" + hash40
                scriptpubkeyAsm = "OP_0 OP_PUSHBYTES_20 " + hash40
            }
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

    /// `spec` expanded; a confirmed transaction without its own block time gets the chain's.
    init(_ spec: EsploraTxSpec, chainTime: ChainTime) {
        let inputs = spec.effectiveInputs
        // P2WPKH-shaped sizes: 41 bytes per input and 31 per output outside the witness,
        // 108 per input inside it.
        let base = 10 + 41 * inputs.count + 31 * spec.outputs.count
        let witness = 2 + 108 * inputs.count
        txid = spec.txid
        vin = inputs.enumerated().map { index, input in
            var random = DeterministicRandom(seed: Fingerprint.of(spec.txid), index: UInt64(index), salt: 7)
            return Input(
                txid: input.txid ?? Fingerprint.hash256("prev:\(spec.txid):\(index)"), vout: input.vout ?? index % 2,
                prevout: Output(address: input.address, value: input.value),
                witness: ["304402" + random.hex(128) + "01", "02" + random.hex(64)])
        }
        vout = spec.outputs.map { Output(address: $0.address, value: $0.value) }
        size = base + witness
        weight = base * 4 + witness
        fee = spec.fee
        status = Status(
            confirmed: spec.blockHeight != nil, blockHeight: spec.blockHeight,
            blockHash: spec.blockHeight.map { Fingerprint.blockHash(height: $0) },
            blockTime: spec.blockHeight.map { spec.blockTime ?? chainTime.time(ofHeight: $0) })
    }

    private enum CodingKeys: String, CodingKey { case txid, version, locktime, vin, vout, size, weight, fee, status }
}
