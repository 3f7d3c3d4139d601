import CSecp256k1

/// The few libsecp256k1 operations public derivation needs: parse, serialize, tweak.
///
/// Every function goes through one context, made at first use and never mutated after (no
/// randomization, no callbacks set), which is what libsecp256k1 requires for a context to be used
/// from several threads at once.
enum Secp256k1 {
    /// The shared context; `nonisolated(unsafe)` because a C pointer is not `Sendable`, and safe
    /// because nothing writes through it after creation.
    private nonisolated(unsafe) static let context: OpaquePointer = {
        guard let context = secp256k1_context_create(csecp256k1_context_none()) else {
            fatalError("libsecp256k1 could not create a context")
        }
        return context
    }()

    /// The 33-byte compressed form of a 33- or 65-byte public key, or nil when it is not a valid point
    /// (or is a hybrid 06/07 key, which BIP32 and descriptors do not accept).
    static func compressed(_ key: [UInt8]) -> [UInt8]? {
        guard key.count == 33 || (key.count == 65 && key[0] == 0x04) else { return nil }
        guard var point = parse(key) else { return nil }
        return serialize(&point, compressed: true)
    }

    /// Whether `key` (33 or 65 bytes, not hybrid) is a point on the curve.
    static func isValid(_ key: [UInt8]) -> Bool {
        guard key.count == 33 || (key.count == 65 && key[0] == 0x04) else { return false }
        return parse(key) != nil
    }

    /// `key` + `tweak`·G as a compressed key: BIP32's CKDpub step. Nil when `tweak` is not below
    /// the curve order or the sum is the point at infinity (BIP32: that child is skipped).
    static func tweakAdd(_ key: [UInt8], tweak: [UInt8]) -> [UInt8]? {
        guard tweak.count == 32, var point = parse(key) else { return nil }
        let ok = tweak.withUnsafeBufferPointer { secp256k1_ec_pubkey_tweak_add(context, &point, $0.baseAddress!) }
        guard ok == 1 else { return nil }
        return serialize(&point, compressed: true)
    }

    /// Whether `key` is the 32-byte x coordinate of a point (BIP340 x-only key).
    static func isValidXOnly(_ key: [UInt8]) -> Bool {
        parseXOnly(key) != nil
    }

    /// The x-only key of `internalKey` + `tweak`·G (BIP341's taproot_tweak_pubkey), or nil when
    /// `internalKey` is not an x coordinate or `tweak` is out of range.
    static func xOnlyTweakAdd(_ internalKey: [UInt8], tweak: [UInt8]) -> [UInt8]? {
        guard tweak.count == 32, var xOnly = parseXOnly(internalKey) else { return nil }
        var output = secp256k1_pubkey()
        let ok = tweak.withUnsafeBufferPointer { secp256k1_xonly_pubkey_tweak_add(context, &output, &xOnly, $0.baseAddress!) }
        guard ok == 1 else { return nil }
        var tweaked = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_from_pubkey(context, &tweaked, nil, &output) == 1 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        _ = bytes.withUnsafeMutableBufferPointer { secp256k1_xonly_pubkey_serialize(context, $0.baseAddress!, &tweaked) }
        return bytes
    }

    private static func parse(_ key: [UInt8]) -> secp256k1_pubkey? {
        var point = secp256k1_pubkey()
        let ok = key.withUnsafeBufferPointer { secp256k1_ec_pubkey_parse(context, &point, $0.baseAddress!, key.count) }
        return ok == 1 ? point : nil
    }

    private static func parseXOnly(_ key: [UInt8]) -> secp256k1_xonly_pubkey? {
        guard key.count == 32 else { return nil }
        var point = secp256k1_xonly_pubkey()
        let ok = key.withUnsafeBufferPointer { secp256k1_xonly_pubkey_parse(context, &point, $0.baseAddress!) }
        return ok == 1 ? point : nil
    }

    private static func serialize(_ point: inout secp256k1_pubkey, compressed: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: compressed ? 33 : 65)
        var length = bytes.count
        let flags = compressed ? csecp256k1_ec_compressed() : csecp256k1_ec_uncompressed()
        _ = bytes.withUnsafeMutableBufferPointer { secp256k1_ec_pubkey_serialize(context, $0.baseAddress!, &length, &point, flags) }
        return bytes
    }
}
