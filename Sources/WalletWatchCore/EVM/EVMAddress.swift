/// A 20-byte account address of an EVM chain, kept in lower-case hex with its `0x`.
///
/// Written by a person it may be all lower-case, all upper-case (no checksum: both are
/// accepted, as EIP-55 says), or mixed case, which must then be EIP-55's checksum: a mixed-case
/// address with one letter's case wrong is a typo that would watch somebody else's account.
public struct EVMAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// `0x` and 40 lower-case hex digits: the form JSON-RPC nodes answer with.
    public let lowercased: String

    /// Parses an address as a user or a source writes it; nil unless `0x` and 40 hex digits.
    /// The checksum is not checked here (sources answer in lower case): see ``init(checking:)``.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 42, utf8[0] == UInt8(ascii: "0"), utf8[1] | 0x20 == UInt8(ascii: "x"),
              utf8.dropFirst(2).allSatisfy(EVMAddress.isHexDigit) else { return nil }
        lowercased = "0x" + String(decoding: utf8.dropFirst(2).map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Parses an address a user wrote, checking EIP-55's checksum when it is written in mixed case.
    public init(checking text: String) throws(EVMAddressError) {
        guard let address = EVMAddress(text) else { throw EVMAddressError(text: text, problem: .notAnAddress) }
        let digits = text.dropFirst(2)
        let hasLower = digits.contains { $0.isLowercase }
        let hasUpper = digits.contains { $0.isUppercase }
        if hasLower && hasUpper && String(text.dropFirst(2)) != String(address.checksummed.dropFirst(2)) {
            throw EVMAddressError(text: text, problem: .badChecksum(expected: address.checksummed))
        }
        self = address
    }

    /// EIP-55's mixed-case form: a letter is upper-case where the matching nibble of the
    /// Keccak-256 of the lower-case hex digits is 8 or more.
    public var checksummed: String {
        let digits = Array(lowercased.utf8.dropFirst(2))
        let hash = Keccak256.hash(digits)
        var output = "0x"
        for (index, digit) in digits.enumerated() {
            let nibble = index % 2 == 0 ? hash[index / 2] >> 4 : hash[index / 2] & 0x0f
            let character = digit >= UInt8(ascii: "a") && nibble >= 8 ? digit - 32 : digit
            output.unicodeScalars.append(Unicode.Scalar(character))
        }
        return output
    }

    /// The 32-byte word of an ABI argument or a log topic: twelve zero bytes, then the address.
    public var word: String { "0x000000000000000000000000" + lowercased.dropFirst(2) }

    /// The address in a 32-byte log topic, when its first twelve bytes are zero.
    public init?(topic: String) {
        let text = topic.lowercased()
        guard text.utf8.count == 66, text.hasPrefix("0x000000000000000000000000") else { return nil }
        self.init("0x" + text.dropFirst(26))
    }

    public var description: String { checksummed }

    public static func < (lhs: EVMAddress, rhs: EVMAddress) -> Bool { lhs.lowercased < rhs.lowercased }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte)
    }
}

/// An address a user wrote that cannot be watched.
public struct EVMAddressError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case notAnAddress
        /// Mixed case, but not EIP-55's: a typo.
        case badChecksum(expected: String)
    }

    public let text: String
    public let problem: Problem

    public var description: String {
        switch problem {
        case .notAnAddress:
            "'\(DisplaySafety.escaped(text))' is not an EVM address; write 0x and 40 hex digits"
        case .badChecksum:
            "'\(DisplaySafety.escaped(text))' fails its EIP-55 checksum (a letter's case is wrong, so a character may be mistyped); copy the address again, or write it all in lower case to skip the check"
        }
    }
}
