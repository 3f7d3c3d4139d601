import WalletWatchBitcoin

/// The output script of an address as Esplora shows it: hex, asm and type. An address that
/// decodes (on any network) gets its real script, so that wallets that match outputs by script
/// (BDK) and the `/scripthash` routes see what a real explorer would; anything else (made-up
/// addresses of older scenarios) keeps a stable stand-in of the right shape.
struct OutputScript: Sendable, Hashable {
    var hex: String
    var asm: String
    var type: String

    /// The script `address` pays to.
    init(address: String) {
        if let script = Self.decode(address) {
            self.init(script: script)
        } else {
            self.init(standIn: address)
        }
    }

    /// The script bytes of `address` when it is a valid address of some network.
    static func decode(_ address: String) -> [UInt8]? {
        for network in candidateNetworks(address) {
            if let decoded = try? Address(address, network: network) { return decoded.scriptPubKey }
        }
        return nil
    }

    /// The networks whose addresses could look like `address`: a bech32 address names its own
    /// (its prefix), so it is decoded once. That matters for the made-up addresses of generated
    /// histories: each failed bech32 decode looks for the error's position, slowly.
    private static func candidateNetworks(_ address: String) -> [Network] {
        let lower = address.lowercased()
        if lower.hasPrefix("bcrt1") { return [.regtest] }
        if lower.hasPrefix("bc1") { return [.bitcoin] }
        if lower.hasPrefix("tb1") { return [.testnet] }
        return [.bitcoin, .testnet, .regtest]
    }

    /// Esplora's script key (`/scripthash/:hash`) of the script `address` pays to.
    static func scripthash(of address: String) -> String {
        Script.esploraScripthash(Hex.decode(OutputScript(address: address).hex) ?? [])
    }

    /// The hex, asm and type of `script`.
    init(script: [UInt8]) {
        hex = Hex.encode(script)
        let push = { (bytes: ArraySlice<UInt8>) in "OP_PUSHBYTES_\(bytes.count) " + Hex.encode(bytes) }
        switch (script.count, script.first) {
        case (25, 0x76):
            type = "p2pkh"
            asm = "OP_DUP OP_HASH160 \(push(script[3..<23])) OP_EQUALVERIFY OP_CHECKSIG"
        case (23, 0xa9):
            type = "p2sh"
            asm = "OP_HASH160 \(push(script[2..<22])) OP_EQUAL"
        case (22, 0x00):
            type = "v0_p2wpkh"
            asm = "OP_0 \(push(script[2...]))"
        case (34, 0x00):
            type = "v0_p2wsh"
            asm = "OP_0 \(push(script[2...]))"
        case (34, 0x51):
            type = "v1_p2tr"
            asm = "OP_PUSHNUM_1 \(push(script[2...]))"
        default:
            type = "unknown"
            asm = script.count >= 2 ? "OP_PUSHNUM_\(Int(script[0]) - 0x50) \(push(script[2...]))" : hex
        }
    }

    /// The type as Bitcoin Core names it (`scriptPubKey.type` of `getrawtransaction`).
    var coreType: String {
        switch type {
        case "p2pkh": "pubkeyhash"
        case "p2sh": "scripthash"
        case "v0_p2wpkh": "witness_v0_keyhash"
        case "v0_p2wsh": "witness_v0_scripthash"
        case "v1_p2tr": "witness_v1_taproot"
        default: "nonstandard"
        }
    }

    /// The stand-in of earlier simulator versions: the shape the address's prefix suggests,
    /// bytes from a hash of the address.
    private init(standIn address: String) {
        let hash40 = String(Fingerprint.hash256("spk:" + address).prefix(40))
        let hash64 = Fingerprint.hash256("spk32:" + address)
        let lower = address.lowercased()
        if lower.hasPrefix("bc1p") || lower.hasPrefix("tb1p") || lower.hasPrefix("bcrt1p") {
            type = "v1_p2tr"
            hex = "5120" + hash64
            asm = "OP_PUSHNUM_1 OP_PUSHBYTES_32 " + hash64
        } else if (lower.hasPrefix("bc1q") || lower.hasPrefix("tb1q") || lower.hasPrefix("bcrt1q")) && address.count > 50 {
            type = "v0_p2wsh"
            hex = "0020" + hash64
            asm = "OP_0 OP_PUSHBYTES_32 " + hash64
        } else if address.hasPrefix("1") || address.hasPrefix("m") || address.hasPrefix("n") {
            type = "p2pkh"
            hex = "76a914" + hash40 + "88ac"
            asm = "OP_DUP OP_HASH160 OP_PUSHBYTES_20 " + hash40 + " OP_EQUALVERIFY OP_CHECKSIG"
        } else if address.hasPrefix("3") || address.hasPrefix("2") {
            type = "p2sh"
            hex = "a914" + hash40 + "87"
            asm = "OP_HASH160 OP_PUSHBYTES_20 " + hash40 + " OP_EQUAL"
        } else {
            type = "v0_p2wpkh"
            hex = "0014" + hash40
            asm = "OP_0 OP_PUSHBYTES_20 " + hash40
        }
    }
}
