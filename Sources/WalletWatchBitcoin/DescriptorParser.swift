/// Reads a descriptor's text into a ``Descriptor``: character set, private-key scan, checksum,
/// then the grammar, by recursive descent over its bytes (all ASCII once the character set is checked).
struct DescriptorParser {
    /// Where a script expression sits, which decides what may appear inside it.
    enum Context {
        case top, sh, wsh

        var name: String {
            switch self {
            case .top: "the top level"
            case .sh: "sh()"
            case .wsh: "wsh()"
            }
        }
    }

    /// What a key expression may be, by the script around it.
    enum KeyContext {
        /// pkh and P2SH multisig: uncompressed keys allowed.
        case legacy
        /// wpkh and P2WSH multisig: compressed keys only.
        case segwit
        /// tr: x-only (64 hex) or compressed keys.
        case taproot
    }

    /// Script expressions valid in BIP380-386, BIP390 and Bitcoin Core that walletwatch does not watch.
    static let unsupportedFunctions: Set<String> = ["pk", "combo", "raw", "addr", "rawtr", "musig", "sp"]

    let bytes: [UInt8]
    let network: Network
    var index = 0

    static func parse(_ text: String, network: Network) throws(DescriptorError) -> Descriptor {
        let bytes = Array(text.utf8)
        if let offset = DescriptorChecksum.firstInvalidOffset(bytes) {
            let position = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
            let character = text[position...].first.map { String($0) } ?? "?"
            throw DescriptorError(.syntax, at: text.distance(from: text.startIndex, to: position) + 1,
                                  "'\(character)' is not a character descriptors use")
        }
        // Before anything that could print the text or something computed from it.
        try PrivateKeyScan.refuse(bytes)
        let body: [UInt8]
        let hashes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "#") }
        if hashes.count > 1 {
            throw DescriptorError(.checksum, at: hashes[1] + 1, "more than one '#'; a descriptor ends with one '#' and its 8-character checksum")
        }
        if let hash = hashes.first {
            body = Array(bytes[..<hash])
            let given = String(decoding: bytes[(hash + 1)...], as: UTF8.self)
            guard given.utf8.count == 8 else {
                throw DescriptorError(.checksum, at: hash + 2, "the checksum after '#' must be 8 characters, not \(given.utf8.count)")
            }
            let expected = DescriptorChecksum.checksum(String(decoding: body, as: UTF8.self)) ?? ""
            guard given == expected else {
                throw DescriptorError(.checksum, at: hash + 2,
                                      "checksum '\(given)' does not match: the descriptor as written has checksum '\(expected)' (check the text before '#' for a typo, or fix the checksum)")
            }
        } else {
            body = bytes
        }
        var parser = DescriptorParser(bytes: body, network: network)
        let descriptor = try parser.script(in: .top)
        if parser.index < body.count {
            throw parser.error(.syntax, "unexpected '\(parser.character)' after the descriptor's closing ')'")
        }
        return descriptor
    }

    // MARK: - Script expressions

    mutating func script(in context: Context) throws(DescriptorError) -> Descriptor {
        let start = index
        let name = identifier()
        guard !name.isEmpty else {
            throw error(.syntax, at: start, index < bytes.count
                ? "expected a script function such as wpkh( or tr(, found '\(character)'"
                : "expected a script function such as wpkh( or tr(")
        }
        guard peek == UInt8(ascii: "(") else {
            if context != .top {
                throw error(.syntax, at: start, "\(context.name) takes a script expression such as \(context == .sh ? "wpkh(" : "multi("), not a key")
            }
            throw error(.syntax, at: index, "expected '(' after '\(name)'")
        }
        index += 1
        let descriptor: Descriptor
        switch name {
        case "pkh":
            guard context == .top else {
                throw error(.unsupported, at: start, "pkh() inside \(context.name) is not supported; walletwatch watches pkh() at the top level")
            }
            descriptor = Descriptor(scriptType: .pkh, network: network, keys: [try key(.legacy, in: name)])
        case "wpkh":
            guard context != .wsh else { throw error(.syntax, at: start, "wpkh() cannot be inside wsh()") }
            let key = try key(.segwit, in: name)
            descriptor = Descriptor(scriptType: context == .sh ? .shWpkh : .wpkh, network: network, keys: [key])
        case "sh":
            guard context == .top else { throw error(.syntax, at: start, "sh() can only be at the top level") }
            descriptor = try script(in: .sh)
        case "wsh":
            guard context != .wsh else { throw error(.syntax, at: start, "wsh() cannot be inside wsh()") }
            let inner = try script(in: .wsh)
            descriptor = Descriptor(scriptType: context == .sh ? .shWshMulti : .wshMulti, network: network, keys: inner.keys,
                                    threshold: inner.threshold, sorted: inner.sorted)
        case "tr":
            guard context == .top else { throw error(.syntax, at: start, "tr() can only be at the top level") }
            let key = try key(.taproot, in: name)
            if peek == UInt8(ascii: ",") {
                throw error(.unsupported, at: index + 1, "tr() with a script tree is not supported; walletwatch watches the key path only")
            }
            descriptor = Descriptor(scriptType: .tr, network: network, keys: [key])
        case "multi", "sortedmulti":
            guard context != .top else {
                throw error(.unsupported, at: start, "bare \(name)() is not supported; use wsh(\(name)(...)) or sh(\(name)(...))")
            }
            descriptor = try multisig(name: name, start: start, in: context)
        default:
            if Self.unsupportedFunctions.contains(name) {
                throw error(.unsupported, at: start, "\(name)() is not supported; walletwatch watches pkh, wpkh, sh(wpkh), tr, and multi or sortedmulti inside sh or wsh")
            }
            if context == .wsh {
                throw error(.unsupported, at: start, "miniscript (\(name)) is not supported; inside wsh() walletwatch takes multi or sortedmulti")
            }
            throw error(.syntax, at: start, "'\(name)' is not a descriptor function")
        }
        try expect(")", after: name)
        return descriptor
    }

    private mutating func multisig(name: String, start: Int, in context: Context) throws(DescriptorError) -> Descriptor {
        let thresholdStart = index
        while let byte = peek, byte != UInt8(ascii: ","), byte != UInt8(ascii: ")") { index += 1 }
        let thresholdText = text(thresholdStart..<index)
        guard let threshold = Int(thresholdText), thresholdText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw error(.syntax, at: thresholdStart, "the threshold of \(name)() must be a number, not '\(thresholdText)'")
        }
        var keys = [DescriptorKey]()
        var keyPositions = [Int]()
        while peek == UInt8(ascii: ",") {
            index += 1
            keyPositions.append(index)
            keys.append(try key(context == .wsh ? .segwit : .legacy, in: name))
        }
        guard !keys.isEmpty else { throw error(.syntax, at: index, "\(name)() needs at least one key after its threshold") }
        guard threshold >= 1 else { throw error(.syntax, at: thresholdStart, "the threshold of \(name)() must be at least 1") }
        guard threshold <= keys.count else {
            throw error(.syntax, at: thresholdStart, "the threshold \(threshold) is more than the \(keys.count) keys of \(name)()")
        }
        guard keys.count <= 20 else {
            throw error(.syntax, at: start, "\(name)() has \(keys.count) keys; multisig takes at most 20")
        }
        if context == .sh {
            // BIP16: a redeem script is at most 520 bytes: 15 compressed keys, fewer uncompressed.
            let size = 3 + keys.reduce(0) { total, key in
                if case .plain(let bytes) = key.material { total + 1 + bytes.count } else { total + 34 }
            }
            guard size <= 520 else {
                throw error(.syntax, at: start, "sh(\(name)()) with \(keys.count) keys makes a \(size)-byte script; P2SH allows 520 (at most 15 compressed keys); use wsh()")
            }
        }
        let counts = Set(keys.compactMap(\.multipathCount))
        guard counts.count <= 1 else {
            let position = keyPositions[keys.firstIndex { $0.multipathCount != nil && $0.multipathCount != keys.compactMap(\.multipathCount).first }!]
            throw error(.syntax, at: position, "multipath groups of different lengths (\(counts.sorted().map(String.init).joined(separator: " and "))); every key's <...> needs the same number of elements")
        }
        return Descriptor(scriptType: .shMulti, network: network, keys: keys, threshold: threshold, sorted: name == "sortedmulti")
    }

    // MARK: - Reading

    var peek: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    var character: Character {
        Character(UnicodeScalar(bytes[index]))
    }

    private mutating func identifier() -> String {
        let start = index
        while let byte = peek, (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 95 { index += 1 }
        return text(start..<index)
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private mutating func expect(_ closing: Character, after name: String) throws(DescriptorError) {
        guard peek == closing.asciiValue else {
            throw error(.syntax, at: index, index < bytes.count
                ? "expected '\(closing)' to close \(name)(, found '\(character)'"
                : "\(name)( is not closed; expected '\(closing)'")
        }
        index += 1
    }

    /// An error at the 0-based byte `offset` of the body (the current place by default).
    func error(_ kind: DescriptorError.Kind, at offset: Int? = nil, _ message: String) -> DescriptorError {
        DescriptorError(kind, at: (offset ?? index) + 1, message)
    }
}
