/// Key expressions (BIP380, BIP389): origins, hex keys, xpubs and the steps after them.
extension DescriptorParser {
    mutating func key(_ keyContext: KeyContext, in function: String) throws(DescriptorError) -> DescriptorKey {
        var origin: DescriptorKey.Origin?
        if peek == UInt8(ascii: "[") {
            origin = try self.origin()
            if peek == UInt8(ascii: "[") { throw error(.syntax, at: index, "a key has at most one origin [...]") }
        }
        let start = index
        while let byte = peek, byte != UInt8(ascii: ","), byte != UInt8(ascii: ")") { index += 1 }
        let token = Array(bytes[start..<index])
        guard !token.isEmpty else { throw error(.syntax, at: start, "\(function)() expects a key here") }
        if let parenthesis = token.firstIndex(of: UInt8(ascii: "(")) {
            // BIP390's musig() is a key expression; anything else here is a script where a key belongs.
            if String(decoding: token[..<parenthesis], as: UTF8.self) == "musig" {
                throw error(.unsupported, at: start, "musig() is not supported; walletwatch watches single keys and multi/sortedmulti")
            }
            throw error(.syntax, at: start, "\(function)() takes a key, not a script expression")
        }
        if let bracket = token.firstIndex(of: UInt8(ascii: "]")) {
            throw error(.syntax, at: start + bracket, "']' without '[': a key origin is written [fingerprint/path]")
        }
        let slash = token.firstIndex(of: UInt8(ascii: "/")) ?? token.count
        let keyText = String(decoding: token[..<slash], as: UTF8.self)
        guard !keyText.isEmpty else { throw error(.syntax, at: start, "\(function)() expects a key before '/'") }
        if keyText.allSatisfy(\.isHexDigit) {
            guard slash == token.count else {
                throw error(.syntax, at: start + slash, "a hex public key takes no derivation steps; only an xpub does")
            }
            return DescriptorKey(origin: origin, material: .plain(try plainKey(keyText, keyContext, at: start, in: function)))
        }
        let extended = try extendedKey(keyText, at: start)
        let (steps, ranged) = try path(token, from: slash, base: start)
        do {
            let resolved = try DescriptorKey.resolve(extended, steps: steps)
            return DescriptorKey(origin: origin, material: .extended(extended, steps: steps, ranged: ranged, resolved: resolved))
        } catch {
            throw self.error(.invalidKey, at: start, "the key's derivation steps reach an index with no valid key (BIP32); use another path")
        }
    }

    private func plainKey(_ hex: String, _ keyContext: KeyContext, at start: Int, in function: String) throws(DescriptorError) -> [UInt8] {
        let key = Hex.decode(hex) ?? []
        if keyContext == .taproot && key.count == 32 {
            guard Secp256k1.isValidXOnly(key) else { throw error(.invalidKey, at: start, "the x-only key is not a point on secp256k1") }
            return key
        }
        switch (key.count, key.first) {
        case (33, 0x02), (33, 0x03):
            guard Secp256k1.isValid(key) else { throw error(.invalidKey, at: start, "the public key is not a point on secp256k1") }
            return key
        case (65, 0x04):
            guard keyContext == .legacy else {
                throw error(.invalidKey, at: start, "uncompressed public keys are not allowed in \(function)() \(keyContext == .taproot ? "(taproot takes x-only or compressed keys)" : "(segwit takes compressed keys)")")
            }
            guard Secp256k1.isValid(key) else { throw error(.invalidKey, at: start, "the public key is not a point on secp256k1") }
            return key
        case (65, 0x06), (65, 0x07):
            throw error(.invalidKey, at: start, "hybrid public keys (06, 07) are not allowed")
        default:
            throw error(.invalidKey, at: start, keyContext == .taproot
                ? "a public key in tr() is 64 hex characters (x-only) or 66 (compressed), not \(hex.utf8.count)"
                : "a public key is 66 hex characters starting 02 or 03\(keyContext == .legacy ? " (or 130 starting 04)" : ""), not \(hex.utf8.count) starting \(hex.prefix(2))")
        }
    }

    private func extendedKey(_ text: String, at start: Int) throws(DescriptorError) -> ExtendedPublicKey {
        let key: ExtendedPublicKey
        do {
            key = try ExtendedPublicKey(text)
        } catch {
            if error.isPrivateKey { throw self.error(.privateKey, at: start, error.description) }
            if case .base58(.invalidCharacter(let offset)) = error.reason {
                throw self.error(.invalidKey, at: start, "a key is a hex public key or an xpub; this one has a character Base58 does not use at position \(start + offset)")
            }
            throw self.error(.invalidKey, at: start, error.description)
        }
        guard key.version.belongs(to: network) else {
            throw error(.wrongNetwork, at: start, "\(key.version) is a key for \(Network.names(sharing: key.version.isTest)), not \(network)")
        }
        guard key.version == key.version.plainPublic else {
            throw error(.invalidKey, at: start, "\(key.version) keys are not valid in descriptors (BIP380 takes \(key.version.plainPublic)); give it as `xpub` instead, where its prefix picks the script")
        }
        return key
    }

    /// The steps after an xpub: `/NUM`, at most one `/<NUM;NUM...>` and a final `/*`.
    private func path(_ token: [UInt8], from slash: Int, base: Int) throws(DescriptorError) -> ([DescriptorKey.Step], Bool) {
        var steps = [DescriptorKey.Step]()
        var ranged = false
        var offset = slash
        while offset < token.count {
            let elementStart = offset + 1
            var end = elementStart
            while end < token.count, token[end] != UInt8(ascii: "/") { end += 1 }
            let element = Array(token[elementStart..<end])
            let position = base + elementStart
            if ranged { throw error(.syntax, at: position - 1, "'*' must be the last step") }
            if element.first == UInt8(ascii: "*") {
                guard element.count == 1 else {
                    if element.count == 2, element[1] == UInt8(ascii: "h") || element[1] == UInt8(ascii: "'") {
                        throw error(.hardenedDerivation, at: position, "hardened derivation after an xpub needs the private key (*\(Character(UnicodeScalar(element[1]))) is hardened); use /*")
                    }
                    throw error(.syntax, at: position, "'\(String(decoding: element, as: UTF8.self))' is not a step; the last step may be *")
                }
                ranged = true
            } else if element.first == UInt8(ascii: "<") {
                guard element.last == UInt8(ascii: ">"), element.count >= 2 else {
                    throw error(.syntax, at: position, "a multipath step <...> has no closing '>'")
                }
                if steps.contains(where: { if case .multipath = $0 { true } else { false } }) {
                    throw error(.syntax, at: position, "a key can have only one multipath step <...> (BIP389)")
                }
                var indexes = [UInt32]()
                var partStart = 1
                for part in element.dropFirst().dropLast().split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                    let index = try step(Array(part), at: position + partStart, hardenedAllowed: false)
                    if indexes.contains(index) {
                        throw error(.syntax, at: position + partStart, "multipath step lists \(index) twice (BIP389)")
                    }
                    indexes.append(index)
                    partStart += part.count + 1
                }
                guard indexes.count >= 2 else {
                    throw error(.syntax, at: position, "a multipath step needs at least two elements, as in <0;1>")
                }
                steps.append(.multipath(indexes))
            } else {
                steps.append(.index(try step(element, at: position, hardenedAllowed: false)))
            }
            offset = end
        }
        return (steps, ranged)
    }

    // MARK: - Origins and steps

    private mutating func origin() throws(DescriptorError) -> DescriptorKey.Origin {
        let open = index
        index += 1
        let start = index
        while let byte = peek, byte != UInt8(ascii: "]") {
            guard byte != UInt8(ascii: ","), byte != UInt8(ascii: ")"), byte != UInt8(ascii: "[") else { break }
            index += 1
        }
        guard peek == UInt8(ascii: "]") else { throw error(.syntax, at: open, "the key origin '[' has no closing ']'") }
        let content = Array(bytes[start..<index])
        index += 1
        let parts = content.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let fingerprintText = String(decoding: parts[0], as: UTF8.self)
        guard fingerprintText.utf8.count == 8 else {
            throw error(.syntax, at: start, "a key origin's fingerprint is 8 hex characters, not \(fingerprintText.utf8.count)")
        }
        guard let fingerprint = UInt32(fingerprintText, radix: 16), fingerprintText.allSatisfy(\.isHexDigit) else {
            throw error(.syntax, at: start, "the fingerprint '\(fingerprintText)' is not hex")
        }
        var path = [UInt32]()
        var offset = start + parts[0].count + 1
        for part in parts.dropFirst() {
            if part.first == UInt8(ascii: "*") { throw error(.syntax, at: offset, "'*' cannot be in a key origin") }
            if part.first == UInt8(ascii: "<") { throw error(.syntax, at: offset, "a multipath step <...> cannot be in a key origin (BIP389)") }
            path.append(try step(Array(part), at: offset, hardenedAllowed: true))
            offset += part.count + 1
        }
        return DescriptorKey.Origin(fingerprint: fingerprint, path: path)
    }

    /// One `NUM`, `NUMh` or `NUM'` step (BIP380: other markers such as `H` are invalid).
    private func step(_ element: [UInt8], at position: Int, hardenedAllowed: Bool) throws(DescriptorError) -> UInt32 {
        var digits = element[...]
        var hardened = false
        if let last = digits.last, last == UInt8(ascii: "h") || last == UInt8(ascii: "'") {
            hardened = true
            digits = digits.dropLast()
        }
        let text = String(decoding: element, as: UTF8.self)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw error(.syntax, at: position, text.isEmpty
                ? "empty derivation step (a '/' or ';' too many)"
                : "'\(text)' is not a derivation step (a number, then h or ' when hardened)")
        }
        guard let value = UInt32(String(decoding: digits, as: UTF8.self)), value < ExtendedPublicKey.hardenedOffset else {
            throw error(.syntax, at: position, "derivation step \(String(decoding: digits, as: UTF8.self)) is out of range (at most 2147483647, with h for hardened)")
        }
        guard !hardened || hardenedAllowed else {
            throw error(.hardenedDerivation, at: position, "hardened derivation after an xpub needs the private key (\(text) is hardened); put the xpub of that path in the descriptor instead")
        }
        return hardened ? value | ExtendedPublicKey.hardenedOffset : value
    }
}
