import Foundation
import WalletWatchBitcoin

/// The vectors of the descriptor BIPs (380-386, 389) as their mediawiki text lays them out.
enum DescriptorVectors {
    /// A valid descriptor and the scripts listed under it (children 0, 1, 2 when ranged).
    struct Valid {
        var descriptor: String
        var scripts: [String]
    }

    /// "* <tt>DESC</tt>" items with their "** <tt>HEX</tt>" (or deeper) sub-items, from the test
    /// vectors up to the line that starts the invalid ones.
    static func valid(_ file: String) throws -> [Valid] {
        let text = try Fixture.text(file)
        let vectors = section(of: text, from: "==Test Vectors==", to: "==Backwards Compatibility==")
        var result = [Valid]()
        for line in vectors.split(separator: "\n") {
            if line.hasPrefix("Invalid") { break }
            if line.hasPrefix("* "), let descriptor = teletype(line).last {
                result.append(Valid(descriptor: descriptor, scripts: []))
            } else if line.hasPrefix("**"), let script = teletype(line).last, !result.isEmpty {
                result[result.count - 1].scripts.append(script)
            }
        }
        return result
    }

    /// The descriptors listed after the line that starts "Invalid" (the last `<tt>` of each item).
    static func invalid(_ file: String) throws -> [String] {
        let text = try Fixture.text(file)
        let vectors = section(of: text, from: "==Test Vectors==", to: "==Backwards Compatibility==")
        guard let start = vectors.range(of: "\nInvalid") else { return [] }
        return vectors[start.upperBound...].split(separator: "\n").filter { $0.hasPrefix("* ") }.compactMap { teletype($0).last }
    }

    /// Whether `text` holds a private key: a WIF (51-52 Base58 characters starting 5, K, L, 9 or
    /// c) or an extended private key (111 characters starting xprv or tprv). Written here rather
    /// than taken from the library so that the expectation does not share its code.
    static func containsPrivateKey(_ text: String) -> Bool {
        let tokens = text.split { "()[],/<>;#{}".contains($0) }
        return tokens.contains { token in
            ((token.count == 51 || token.count == 52) && "5KL9c".contains(token.first!) && !token.allSatisfy(\.isHexDigit))
                || (token.count == 111 && (token.hasPrefix("xprv") || token.hasPrefix("tprv")))
        }
    }

    /// Whether `text` is one of the descriptor shapes walletwatch watches (keys without functions).
    static func isInScope(_ text: String) -> Bool {
        let body = String(text.split(separator: "#", omittingEmptySubsequences: false)[0])
        let shapes = [#"^pkh\([^(),]+\)$"#, #"^wpkh\([^(),]+\)$"#, #"^sh\(wpkh\([^(),]+\)\)$"#, #"^tr\([^(),{}]+\)$"#,
                      #"^wsh\((sorted)?multi\([^()]+\)\)$"#, #"^sh\(wsh\((sorted)?multi\([^()]+\)\)\)$"#, #"^sh\((sorted)?multi\([^()]+\)\)$"#]
        return shapes.contains { body.range(of: $0, options: .regularExpression) != nil }
    }
}

extension Descriptor {
    /// The scripts at indexes 0..<count of `branch`, as hex.
    func scripts(_ count: Int, branch: Int = 0) throws -> [String] {
        try (0..<count).map { try hex(scriptPubKey(index: UInt32($0), branch: branch)) }
    }
}
