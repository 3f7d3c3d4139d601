/// Base58 and Base58Check, the encoding of legacy addresses, WIF keys and BIP32 extended keys.
public enum Base58 {
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = Int8(value)
        }
        return table
    }()

    /// The Base58 text of `bytes`; each leading zero byte becomes a leading `1`.
    public static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        // Base-58 digits, least significant first, built by long multiplication.
        var digits = [UInt8]()
        for byte in bytes[zeros...] {
            var carry = Int(byte)
            for index in digits.indices {
                carry += Int(digits[index]) << 8
                digits[index] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        let text = [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of Base58 `text`, or the 1-based position of its first character outside the alphabet.
    public static func decode(_ text: String) -> Result<[UInt8], Base58Error> {
        let characters = Array(text.unicodeScalars)
        let zeros = characters.prefix { $0 == "1" }.count
        var bytes = [UInt8]()
        for (offset, character) in characters.enumerated() {
            guard character.value < 128, values[Int(character.value)] >= 0 else {
                return .failure(.invalidCharacter(position: offset + 1))
            }
            guard offset >= zeros else { continue }
            var carry = Int(values[Int(character.value)])
            for index in bytes.indices {
                carry += Int(bytes[index]) * 58
                bytes[index] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xff))
                carry >>= 8
            }
        }
        return .success([UInt8](repeating: 0, count: zeros) + bytes.reversed())
    }

    /// The Base58Check text of `payload`: the payload and the first 4 bytes of its double SHA-256.
    public static func encodeCheck(_ payload: [UInt8]) -> String {
        encode(payload + Hashes.doubleSHA256(payload).prefix(4))
    }

    /// The payload of Base58Check `text`, after its checksum is verified.
    public static func decodeCheck(_ text: String) -> Result<[UInt8], Base58Error> {
        switch decode(text) {
        case .failure(let error):
            return .failure(error)
        case .success(let bytes):
            guard bytes.count >= 4 else { return .failure(.tooShort) }
            let payload = Array(bytes.dropLast(4))
            guard Hashes.doubleSHA256(payload).prefix(4).elementsEqual(bytes.suffix(4)) else {
                return .failure(.checksumMismatch)
            }
            return .success(payload)
        }
    }
}

/// Why a string is not valid Base58 or Base58Check.
public enum Base58Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// A character outside the Base58 alphabet (0, O, I, l and non-ASCII), at a 1-based position.
    case invalidCharacter(position: Int)
    /// Fewer bytes than the 4-byte checksum.
    case tooShort
    /// The last 4 bytes are not the checksum of the others: a typo or a truncated copy.
    case checksumMismatch

    public var description: String {
        switch self {
        case .invalidCharacter(let position):
            "has a character at position \(position) that Base58 does not use (0, O, I and l are never used)"
        case .tooShort:
            "is too short to carry a Base58Check checksum"
        case .checksumMismatch:
            "checksum does not match (a character is mistyped or missing)"
        }
    }
}
