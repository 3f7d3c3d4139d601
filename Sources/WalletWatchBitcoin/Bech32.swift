/// The two checksums of the bech32 family: BIP173's Bech32 and BIP350's Bech32m.
public enum Bech32Encoding: String, Sendable, Hashable {
    /// BIP173's checksum: segwit version 0 addresses.
    case bech32
    /// BIP350's checksum: segwit version 1 and above (taproot).
    case bech32m

    var constant: UInt32 {
        switch self {
        case .bech32: 1
        case .bech32m: 0x2bc8_30a3
        }
    }

    /// The name people write: "Bech32" or "Bech32m".
    var displayName: String {
        switch self {
        case .bech32: "Bech32"
        case .bech32m: "Bech32m"
        }
    }
}

/// A string decoded as Bech32 or Bech32m: its human-readable part and its 5-bit data values.
public struct Bech32String: Sendable, Hashable {
    /// The human-readable part, in lowercase (`bc`, `tb`, `bcrt`).
    public let hrp: String
    /// The data part without the checksum, one 5-bit value per character.
    public let data: [UInt8]
    /// Which checksum the string carries.
    public let encoding: Bech32Encoding
}

/// BIP173 and BIP350 string encoding: the checksum, the character set and the case and length rules.
public enum Bech32 {
    /// The 32 data characters; a character's index is its 5-bit value.
    static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    /// The longest string BIP173 allows.
    public static let maximumLength = 90

    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (value, character) in charset.enumerated() {
            table[Int(character)] = Int8(value)
        }
        return table
    }()

    /// Decodes a Bech32 or Bech32m string, telling which checksum it carries.
    ///
    /// `maximumLength` is BIP173's 90 characters unless a format built on the encoding allows
    /// longer strings (an Ark address carries 65 bytes, about 114 characters; nil: no limit, as
    /// btcd's `DecodeNoLimit` that arkd reads them with). Errors carry 1-based character
    /// positions: the first character of the string is 1.
    public static func decode(_ string: String, maximumLength: Int? = Bech32.maximumLength) throws(Bech32Error) -> Bech32String {
        let bytes = Array(string.utf8)
        if let index = bytes.firstIndex(where: { $0 < 33 || $0 > 126 }) {
            // Count characters rather than bytes so that a multi-byte character reports its own place.
            throw Bech32Error(.characterOutOfRange, position: characterPosition(in: string, utf8Offset: index))
        }
        if let maximumLength, bytes.count > maximumLength {
            throw Bech32Error(.tooLong(bytes.count))
        }
        if let position = mixedCasePosition(bytes) {
            throw Bech32Error(.mixedCase, position: position)
        }
        let lower = bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")) else {
            throw Bech32Error(.noSeparator)
        }
        if separator == 0 {
            throw Bech32Error(.emptyHumanReadablePart)
        }
        if lower.count - separator - 1 < 6 {
            throw Bech32Error(.checksumTooShort)
        }
        var data = [UInt8]()
        for index in (separator + 1)..<lower.count {
            let value = values[Int(lower[index])]
            if value < 0 {
                throw Bech32Error(.invalidDataCharacter(Character(UnicodeScalar(bytes[index]))), position: index + 1)
            }
            data.append(UInt8(value))
        }
        let hrp = Array(lower[..<separator])
        let check = polymod(expand(hrp) + data)
        let encoding: Bech32Encoding
        if check == Bech32Encoding.bech32.constant {
            encoding = .bech32
        } else if check == Bech32Encoding.bech32m.constant {
            encoding = .bech32m
        } else {
            throw Bech32Error(.checksumMismatch, position: locateSingleError(hrp: hrp, data: data).map { separator + 1 + $0 + 1 })
        }
        return Bech32String(hrp: String(decoding: hrp, as: UTF8.self), data: Array(data.dropLast(6)), encoding: encoding)
    }

    /// The string for `hrp` (lowercase) and 5-bit `data` values with the checksum of `encoding`.
    public static func encode(hrp: String, data: [UInt8], encoding: Bech32Encoding) -> String {
        let hrpBytes = Array(hrp.utf8)
        let values = expand(hrpBytes) + data + [0, 0, 0, 0, 0, 0]
        let check = polymod(values) ^ encoding.constant
        var text = hrpBytes + [UInt8(ascii: "1")]
        for value in data {
            text.append(charset[Int(value)])
        }
        for index in 0..<6 {
            text.append(charset[Int((check >> (5 * (5 - UInt32(index)))) & 31)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: - Checksum

    static func polymod(_ values: [UInt8]) -> UInt32 {
        var check: UInt32 = 1
        for value in values {
            check = step(check, value)
        }
        return check
    }

    /// One character of the checksum: shift `check` by one 5-bit symbol and add `value`.
    private static func step(_ check: UInt32, _ value: UInt8) -> UInt32 {
        let generator: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
        let top = check >> 25
        var next = (check & 0x1ff_ffff) << 5 ^ UInt32(value)
        for bit in 0..<5 where (top >> UInt32(bit)) & 1 == 1 {
            next ^= generator[bit]
        }
        return next
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    /// The index in `data` of the one character whose replacement makes the checksum valid (with
    /// either constant), when exactly one such place exists.
    ///
    /// Both checksums detect every error of up to 4 characters, so a one-character fix, when there
    /// is one, points at the character a person most likely mistyped. The checksum is linear
    /// (XOR) in its input: changing the character `k` places from the end by XOR `d` changes the
    /// checksum by XOR `effect[d][k]`, the checksum of `d` followed by `k` zeros started from 0.
    /// So each of the 31 changes in each place is one table look-up, not a whole checksum: a
    /// failed decode stays cheap even for a program decoding many bad strings (the simulator's
    /// made-up addresses).
    private static func locateSingleError(hrp: [UInt8], data: [UInt8]) -> Int? {
        let residue = polymod(expand(hrp) + data)
        var effect = [[UInt32]](repeating: [], count: 32)
        for difference in 1..<32 {
            var check = UInt32(difference)
            effect[difference].reserveCapacity(data.count)
            for _ in data.indices {
                effect[difference].append(check)
                check = step(check, 0)
            }
        }
        var found: Set<Int> = []
        for index in data.indices {
            let fromEnd = data.count - 1 - index
            for difference in 1..<32 {
                let check = residue ^ effect[difference][fromEnd]
                if check == Bech32Encoding.bech32.constant || check == Bech32Encoding.bech32m.constant {
                    found.insert(index)
                }
            }
        }
        return found.count == 1 ? found.first : nil
    }

    // MARK: - Helpers

    /// The 1-based position of the first letter whose case differs from the first letter's.
    private static func mixedCasePosition(_ bytes: [UInt8]) -> Int? {
        var firstIsUpper: Bool?
        for (index, byte) in bytes.enumerated() {
            let isUpper = byte >= 65 && byte <= 90
            let isLower = byte >= 97 && byte <= 122
            guard isUpper || isLower else { continue }
            if let first = firstIsUpper {
                if first != isUpper { return index + 1 }
            } else {
                firstIsUpper = isUpper
            }
        }
        return nil
    }

    private static func characterPosition(in string: String, utf8Offset: Int) -> Int {
        let index = string.utf8.index(string.utf8.startIndex, offsetBy: utf8Offset)
        return string.distance(from: string.startIndex, to: index) + 1
    }

    /// Regroups `values` of `from` bits into values of `to` bits (BIP173's convertbits).
    ///
    /// With `pad`, a last partial group is zero-filled (encoding); without, leftover bits must be
    /// fewer than `from` and all zero (decoding), else the result names what is wrong.
    static func convertBits(_ values: [UInt8], from: Int, to: Int, pad: Bool) -> Result<[UInt8], PaddingError> {
        var accumulator = 0
        var bits = 0
        var output = [UInt8]()
        let maxValue = (1 << to) - 1
        for value in values {
            accumulator = (accumulator << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                output.append(UInt8((accumulator >> bits) & maxValue))
            }
            accumulator &= (1 << bits) - 1
        }
        if pad {
            if bits > 0 {
                output.append(UInt8((accumulator << (to - bits)) & maxValue))
            }
        } else if bits >= from {
            return .failure(.tooManyPaddingBits(bits))
        } else if (accumulator << (to - bits)) & maxValue != 0 {
            return .failure(.nonZeroPadding)
        }
        return .success(output)
    }

    /// Why the leftover bits of a 5-to-8 regrouping are not valid padding.
    enum PaddingError: Error, Equatable {
        case tooManyPaddingBits(Int)
        case nonZeroPadding
    }
}
