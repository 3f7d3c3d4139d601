/// Builders of the standard output scripts (scriptPubKeys) and the multisig scripts inside them.
public enum Script {
    static let opFalse: UInt8 = 0x00
    static let opDup: UInt8 = 0x76
    static let opHash160: UInt8 = 0xa9
    static let opEqual: UInt8 = 0x87
    static let opEqualVerify: UInt8 = 0x88
    static let opCheckSig: UInt8 = 0xac
    static let opCheckMultisig: UInt8 = 0xae

    /// P2PKH: `OP_DUP OP_HASH160 <20-byte key hash> OP_EQUALVERIFY OP_CHECKSIG`.
    public static func p2pkh(keyHash: [UInt8]) -> [UInt8] {
        precondition(keyHash.count == 20, "a P2PKH key hash is 20 bytes")
        return [opDup, opHash160, 20] + keyHash + [opEqualVerify, opCheckSig]
    }

    /// P2PKH paying to `publicKey` (33 or 65 bytes, hashed as given).
    public static func p2pkh(publicKey: [UInt8]) -> [UInt8] {
        p2pkh(keyHash: Hashes.hash160(publicKey))
    }

    /// P2SH: `OP_HASH160 <20-byte script hash> OP_EQUAL`.
    public static func p2sh(scriptHash: [UInt8]) -> [UInt8] {
        precondition(scriptHash.count == 20, "a P2SH script hash is 20 bytes")
        return [opHash160, 20] + scriptHash + [opEqual]
    }

    /// P2SH of `redeemScript` (BIP16).
    public static func p2sh(redeemScript: [UInt8]) -> [UInt8] {
        p2sh(scriptHash: Hashes.hash160(redeemScript))
    }

    /// P2WPKH: witness version 0 with the 20-byte HASH160 of a compressed key.
    public static func p2wpkh(publicKey: [UInt8]) -> [UInt8] {
        witnessProgram(version: 0, program: Hashes.hash160(publicKey))
    }

    /// P2WSH: witness version 0 with the SHA-256 of `witnessScript` (BIP141).
    public static func p2wsh(witnessScript: [UInt8]) -> [UInt8] {
        witnessProgram(version: 0, program: Hashes.sha256(witnessScript))
    }

    /// P2TR: witness version 1 with a 32-byte x-only output key (BIP341).
    public static func p2tr(outputKey: [UInt8]) -> [UInt8] {
        precondition(outputKey.count == 32, "a taproot output key is 32 bytes")
        return witnessProgram(version: 1, program: outputKey)
    }

    /// The output of any witness version: `OP_n <program>` (BIP141).
    public static func witnessProgram(version: UInt8, program: [UInt8]) -> [UInt8] {
        precondition(version <= 16 && (2...40).contains(program.count), "witness version 0-16, program of 2-40 bytes")
        return [version == 0 ? opFalse : 0x50 + version, UInt8(program.count)] + program
    }

    /// `k <keys...> n OP_CHECKMULTISIG` with the keys in the order given (BIP383 `multi`).
    public static func multi(threshold: Int, publicKeys: [[UInt8]]) -> [UInt8] {
        precondition(threshold >= 1 && threshold <= publicKeys.count, "threshold between 1 and the number of keys")
        var script = pushNumber(threshold)
        for key in publicKeys {
            script += [UInt8(key.count)] + key
        }
        return script + pushNumber(publicKeys.count) + [opCheckMultisig]
    }

    /// `multi` with the keys sorted by their serialized bytes (BIP67, BIP383 `sortedmulti`).
    public static func sortedMulti(threshold: Int, publicKeys: [[UInt8]]) -> [UInt8] {
        multi(threshold: threshold, publicKeys: publicKeys.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Esplora's key for a script's REST routes (`/scripthash/:hash`): the SHA-256 of the
    /// scriptPubKey as lowercase hex, in the hash's own byte order. electrs (`rest.rs`:
    /// `parse_scripthash` reads the hex as the bytes of `compute_script_hash`, a plain SHA-256)
    /// does not reverse it, and BDK's Esplora client sends it unreversed; only the Electrum
    /// protocol reverses it (``electrumScripthash(_:)``).
    public static func esploraScripthash(_ scriptPubKey: [UInt8]) -> String {
        Hex.encode(Hashes.sha256(scriptPubKey))
    }

    /// The Electrum protocol's script hash: the SHA-256 of the scriptPubKey, bytes reversed, as
    /// lowercase hex.
    public static func electrumScripthash(_ scriptPubKey: [UInt8]) -> String {
        Hex.encode(Hashes.sha256(scriptPubKey).reversed())
    }

    /// The smallest push of a small number: OP_1-OP_16, else a one-byte push (17-20 keys in P2WSH).
    static func pushNumber(_ number: Int) -> [UInt8] {
        precondition(number >= 1 && number <= 127, "multisig counts are 1-20")
        return number <= 16 ? [0x50 + UInt8(number)] : [1, UInt8(number)]
    }

    /// The standard output template a scriptPubKey follows, for turning it into an address.
    enum Template: Equatable {
        case p2pkh(keyHash: [UInt8])
        case p2sh(scriptHash: [UInt8])
        case witness(version: UInt8, program: [UInt8])

        init?(_ script: [UInt8]) {
            if script.count == 25, script[0] == opDup, script[1] == opHash160, script[2] == 20,
               script[23] == opEqualVerify, script[24] == opCheckSig {
                self = .p2pkh(keyHash: Array(script[3..<23]))
            } else if script.count == 23, script[0] == opHash160, script[1] == 20, script[22] == opEqual {
                self = .p2sh(scriptHash: Array(script[2..<22]))
            } else if (4...42).contains(script.count), script[0] == opFalse || (0x51...0x60).contains(script[0]),
                      Int(script[1]) == script.count - 2 {
                self = .witness(version: script[0] == opFalse ? 0 : script[0] - 0x50, program: Array(script[2...]))
            } else {
                return nil
            }
        }
    }
}
