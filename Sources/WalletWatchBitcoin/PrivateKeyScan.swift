/// Finds private keys anywhere in a descriptor, before anything is parsed or printed.
enum PrivateKeyScan {
    /// Throws for the first token (between the descriptor's punctuation) that is a WIF or an
    /// extended private key, naming only its kind and position.
    static func refuse(_ bytes: [UInt8]) throws(DescriptorError) {
        // Everything that can border a key, spaces included: a pasted key is often padded.
        let separators = Set("()[],/<>;#{}'* ".utf8)
        var start = 0
        for offset in 0...bytes.count where offset == bytes.count || separators.contains(bytes[offset]) {
            defer { start = offset + 1 }
            guard offset - start >= 50, offset - start <= 120 else { continue }
            let token = String(decoding: bytes[start..<offset], as: UTF8.self)
            if PrivateKeyDetector.looksLikeExtendedPrivateKey(token) {
                let name = String(token.prefix(4))
                let isTest = ExtendedKeyVersion.allCases.first { $0.description == name }?.isTest ?? false
                throw DescriptorError(.privateKey, at: start + 1,
                                      "a private key (\(name)...) was given; walletwatch only needs the \(isTest ? "tpub" : "xpub")")
            }
            if PrivateKeyDetector.looksLikeWIF(token) {
                throw DescriptorError(.privateKey, at: start + 1,
                                      "a private key (WIF) was given; walletwatch never takes private keys: give the public key")
            }
        }
    }
}
