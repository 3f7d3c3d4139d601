/// Recognises private keys so that they can be refused without being repeated anywhere.
enum PrivateKeyDetector {
    /// "WIF", or the extended private version's name (`xprv`, `tprv`...), when a Base58Check
    /// payload is a private key; nil otherwise.
    static func privateKeyKind(payload: [UInt8]) -> String? {
        if payload.count == 33 || (payload.count == 34 && payload[33] == 0x01), payload[0] == 0x80 || payload[0] == 0xef {
            return "WIF"
        }
        if payload.count == 78, let version = ExtendedKeyVersion(rawValue: UInt32(bigEndianBytes: payload.prefix(4))),
           version.isPrivate {
            return "\(version)..."
        }
        return nil
    }

    /// Whether `text` has the shape of a WIF private key (51 Base58 characters starting 5 or 9,
    /// or 52 starting K, L or c), even when its checksum fails: no public key or address has it.
    static func looksLikeWIF(_ text: some StringProtocol) -> Bool {
        let count = text.utf8.count
        guard let first = text.first, count == 51 || count == 52 else { return false }
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && Base58.alphabet.contains(UInt8($0.value)) }) else { return false }
        return count == 51 ? "59".contains(first) : "KLc".contains(first)
    }

    /// Whether `text` has the shape of an extended private key (its prefix and length), even when
    /// its checksum fails: a mistyped private key is still a secret and must not be echoed.
    static func looksLikeExtendedPrivateKey(_ text: some StringProtocol) -> Bool {
        guard (100...120).contains(text.utf8.count), text.unicodeScalars.allSatisfy({ $0.isASCII }) else { return false }
        let prefix = String(text.prefix(4))
        return ExtendedKeyVersion.allCases.contains { $0.isPrivate && $0.description == prefix }
    }
}
