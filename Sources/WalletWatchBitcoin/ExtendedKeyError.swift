/// Why a string is not a usable extended public key. The key itself is never repeated: it may be
/// a private key.
public struct ExtendedKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// Not valid Base58Check (a character outside the alphabet, or a checksum that does not match).
        case base58(Base58Error)
        /// Decodes to other than the 78 bytes of BIP32's serialization.
        case wrongLength(Int)
        /// Far longer than any extended key (111 characters).
        case tooLong
        /// Version bytes that neither BIP32 nor SLIP-132 registers for Bitcoin.
        case unknownVersion(UInt32)
        /// An extended private key (its version named: `xprv`, `tprv`, `zprv`...).
        case privateKey(String)
        /// A public version whose key data is a private key (BIP32: "pubkey version / prvkey mismatch").
        case privateKeyData(ExtendedKeyVersion)
        /// Key data that opens with other than 02 or 03.
        case invalidPublicKeyPrefix(UInt8)
        /// Depth 0 (a master key) with a parent fingerprint.
        case zeroDepthWithParentFingerprint
        /// Depth 0 (a master key) with a child number.
        case zeroDepthWithChildNumber
        /// Key data that is not a point on secp256k1.
        case invalidPublicKey
        /// A key of the other network family (named) than the one expected.
        case wrongNetwork(ExtendedKeyVersion, expected: Network)
    }

    /// What is wrong.
    public let reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    /// Whether the input was private key material.
    public var isPrivateKey: Bool {
        switch reason {
        case .privateKey, .privateKeyData: true
        default: false
        }
    }

    public var description: String {
        switch reason {
        case .base58(let error):
            "the extended key \(error)"
        case .wrongLength(let count):
            "the text is not an extended key: it decodes to \(count) bytes, BIP32 keys to 78"
        case .tooLong:
            "the text is not an extended key: it is far longer than one (111 characters)"
        case .unknownVersion(let version):
            "the extended key's version 0x\(String(version, radix: 16)) is not one of bitcoin's (xpub, ypub, zpub, tpub, upub, vpub)"
        case .privateKey(let name):
            "a private key (\(name)...) was given; walletwatch only needs the xpub"
        case .privateKeyData(let version):
            "the \(version) holds private key data; walletwatch never takes private keys, give the xpub"
        case .invalidPublicKeyPrefix(let prefix):
            "the extended key's public key starts with 0x\(Hex.encode([prefix])); only 02 and 03 are valid"
        case .zeroDepthWithParentFingerprint:
            "the extended key has depth 0 (a master key) but a parent fingerprint"
        case .zeroDepthWithChildNumber:
            "the extended key has depth 0 (a master key) but a child number"
        case .invalidPublicKey:
            "the extended key's public key is not a point on secp256k1"
        case .wrongNetwork(let version, let expected):
            "\(version) is a key for \(Network.names(sharing: version.isTest)), not \(expected)"
        }
    }
}
