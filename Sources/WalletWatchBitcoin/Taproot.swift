/// BIP341's key tweak, which turns an internal key into the output key a P2TR script commits to.
public enum Taproot {
    /// The tweak `t = hash_TapTweak(internalKey || merkleRoot)`; without a script tree the merkle
    /// root is left out (BIP341 taproot_tweak_pubkey, BIP86).
    public static func tweak(internalKey: [UInt8], merkleRoot: [UInt8]? = nil) -> [UInt8] {
        Hashes.taggedHash("TapTweak", internalKey + (merkleRoot ?? []))
    }

    /// The x-only output key `Q = lift_x(internalKey) + t·G`, or nil when `internalKey` is not the
    /// x coordinate of a point (or, with odds of 1 in 2^128, the tweak is out of range).
    public static func outputKey(internalKey: [UInt8], merkleRoot: [UInt8]? = nil) -> [UInt8]? {
        Secp256k1.xOnlyTweakAdd(internalKey, tweak: tweak(internalKey: internalKey, merkleRoot: merkleRoot))
    }
}
