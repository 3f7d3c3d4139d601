/// Why a string is not valid Bech32 or Bech32m.
public struct Bech32Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Equatable {
        /// A character outside printable ASCII (33-126).
        case characterOutOfRange
        /// Longer than 90 characters (the count is given).
        case tooLong(Int)
        /// Upper and lower case letters mixed.
        case mixedCase
        /// No `1` between the human-readable part and the data.
        case noSeparator
        /// Nothing before the separator.
        case emptyHumanReadablePart
        /// Fewer than 6 characters after the separator.
        case checksumTooShort
        /// A data character outside `qpzry9x8gf2tvdw0s3jn54khce6mua7l`.
        case invalidDataCharacter(Character)
        /// Neither the Bech32 nor the Bech32m checksum matches.
        case checksumMismatch
    }

    /// What is wrong.
    public let reason: Reason
    /// The 1-based position of the first bad character, where the encoding tells it.
    public let position: Int?

    init(_ reason: Reason, position: Int? = nil) {
        self.reason = reason
        self.position = position
    }

    public var description: String {
        switch reason {
        case .characterOutOfRange:
            "has a character that is not printable ASCII\(atPosition)"
        case .tooLong(let length):
            "is \(length) characters long; bech32 strings have at most 90"
        case .mixedCase:
            "mixes upper and lower case\(atPosition); write it all in one case"
        case .noSeparator:
            "has no '1' separator between its prefix and its data"
        case .emptyHumanReadablePart:
            "has no prefix before its '1' separator"
        case .checksumTooShort:
            "is too short to hold a checksum (6 characters after the last '1')"
        case .invalidDataCharacter(let character):
            "has an invalid character '\(character)'\(atPosition) (b, i, o and 1 are not used after the separator)"
        case .checksumMismatch:
            if let position {
                "checksum does not match (first bad character at position \(position))"
            } else {
                "checksum does not match"
            }
        }
    }

    private var atPosition: String {
        position.map { " at position \($0)" } ?? ""
    }
}
