/// A BIP32 extended public key: a public key and a chain code, from which non-hardened children
/// are derived without any private key (CKDpub).
public struct ExtendedPublicKey: Sendable, Hashable, CustomStringConvertible {
    /// Its version bytes: the network and, with SLIP-132, the intended script.
    public let version: ExtendedKeyVersion
    /// How many derivations separate it from the master key (0 for the master).
    public let depth: UInt8
    /// The first 4 bytes of the parent key's HASH160, big-endian (0 for the master).
    public let parentFingerprint: UInt32
    /// The index it was derived at (0 for the master; 2^31 and above for hardened).
    public let childNumber: UInt32
    /// The 32-byte chain code.
    public let chainCode: [UInt8]
    /// The 33-byte compressed public key.
    public let publicKey: [UInt8]

    /// The first hardened index: a derivation step at or above it needs the private key.
    public static let hardenedOffset: UInt32 = 0x8000_0000

    /// Parses a Base58Check extended public key (BIP32 "Serialization format"), of any public
    /// version, checking everything BIP32's test vector 5 lists. Private keys are refused.
    public init(_ text: String) throws(ExtendedKeyError) {
        guard text.utf8.count <= 200 else { throw ExtendedKeyError(.tooLong) }
        let bytes: [UInt8]
        switch Base58.decode(text) {
        case .success(let decoded):
            bytes = decoded
        case .failure(let error):
            if PrivateKeyDetector.looksLikeExtendedPrivateKey(text) {
                throw ExtendedKeyError(.privateKey(String(text.prefix(4))))
            }
            throw ExtendedKeyError(.base58(error))
        }
        // A private version is refused before the checksum: a mistyped private key is still secret.
        if bytes.count == 82, let version = ExtendedKeyVersion(rawValue: UInt32(bigEndianBytes: bytes.prefix(4))), version.isPrivate {
            throw ExtendedKeyError(.privateKey(version.description))
        }
        if bytes.count != 82, PrivateKeyDetector.looksLikeExtendedPrivateKey(text) {
            throw ExtendedKeyError(.privateKey(String(text.prefix(4))))
        }
        let payload: [UInt8]
        switch Base58.decodeCheck(text) {
        case .success(let decoded): payload = decoded
        case .failure(let error): throw ExtendedKeyError(.base58(error))
        }
        try self.init(payload: payload)
    }

    /// Parses the 78-byte serialization.
    init(payload: [UInt8]) throws(ExtendedKeyError) {
        guard payload.count == 78 else { throw ExtendedKeyError(.wrongLength(payload.count)) }
        let rawVersion = UInt32(bigEndianBytes: payload[0..<4])
        guard let version = ExtendedKeyVersion(rawValue: rawVersion) else {
            throw ExtendedKeyError(.unknownVersion(rawVersion))
        }
        guard !version.isPrivate else { throw ExtendedKeyError(.privateKey(version.description)) }
        let depth = payload[4]
        let parentFingerprint = UInt32(bigEndianBytes: payload[5..<9])
        let childNumber = UInt32(bigEndianBytes: payload[9..<13])
        let chainCode = Array(payload[13..<45])
        let key = Array(payload[45..<78])
        guard key[0] == 0x02 || key[0] == 0x03 else {
            // 0x00 opens a private key: BIP32's "pubkey version / prvkey mismatch".
            throw ExtendedKeyError(key[0] == 0x00 ? .privateKeyData(version) : .invalidPublicKeyPrefix(key[0]))
        }
        if depth == 0 && parentFingerprint != 0 {
            throw ExtendedKeyError(.zeroDepthWithParentFingerprint)
        }
        if depth == 0 && childNumber != 0 {
            throw ExtendedKeyError(.zeroDepthWithChildNumber)
        }
        guard Secp256k1.isValid(key) else { throw ExtendedKeyError(.invalidPublicKey) }
        self.init(version: version, depth: depth, parentFingerprint: parentFingerprint, childNumber: childNumber,
                  chainCode: chainCode, publicKey: key)
    }

    init(version: ExtendedKeyVersion, depth: UInt8, parentFingerprint: UInt32, childNumber: UInt32, chainCode: [UInt8], publicKey: [UInt8]) {
        self.version = version
        self.depth = depth
        self.parentFingerprint = parentFingerprint
        self.childNumber = childNumber
        self.chainCode = chainCode
        self.publicKey = publicKey
    }

    /// The Base58Check serialization (BIP32), which starts with the version's four letters.
    public var description: String {
        Base58.encodeCheck(serialized)
    }

    /// The 78 serialized bytes.
    public var serialized: [UInt8] {
        version.rawValue.bigEndianBytes + [depth] + parentFingerprint.bigEndianBytes + childNumber.bigEndianBytes + chainCode + publicKey
    }

    /// The key's identifier: HASH160 of its compressed public key.
    public var identifier: [UInt8] {
        Hashes.hash160(publicKey)
    }

    /// The first 4 bytes of the identifier, big-endian: the children's parent fingerprint and the
    /// fingerprint of descriptor key origins.
    public var fingerprint: UInt32 {
        UInt32(bigEndianBytes: identifier.prefix(4))
    }

    /// The same key under another version of its network (SLIP-132 ypub to xpub, and back).
    public func withVersion(_ version: ExtendedKeyVersion) -> ExtendedPublicKey {
        precondition(!version.isPrivate && version.isTest == self.version.isTest, "a public version of the same network")
        return ExtendedPublicKey(version: version, depth: depth, parentFingerprint: parentFingerprint, childNumber: childNumber,
                                 chainCode: chainCode, publicKey: publicKey)
    }

    /// The non-hardened child at `index` (BIP32 CKDpub).
    ///
    /// Throws for a hardened index (that needs the private key), and for the index BIP32 says to
    /// skip: when the tweak is not below the curve order or the child is the point at infinity
    /// (odds below 1 in 2^127).
    public func child(_ index: UInt32) throws(DerivationError) -> ExtendedPublicKey {
        guard index < Self.hardenedOffset else { throw DerivationError.hardenedStep(index) }
        guard depth < UInt8.max else { throw DerivationError.tooDeep }
        let digest = Hashes.hmacSHA512(key: chainCode, message: publicKey + index.bigEndianBytes)
        guard let childKey = Secp256k1.tweakAdd(publicKey, tweak: Array(digest[0..<32])) else {
            throw DerivationError.invalidChild(index)
        }
        return ExtendedPublicKey(version: version, depth: depth + 1, parentFingerprint: fingerprint, childNumber: index,
                                 chainCode: Array(digest[32..<64]), publicKey: childKey)
    }

    /// The key at the end of the non-hardened `path`, one CKDpub per step.
    public func derive(_ path: some Sequence<UInt32>) throws(DerivationError) -> ExtendedPublicKey {
        var key = self
        for index in path {
            key = try key.child(index)
        }
        return key
    }
}
