/// A proof-of-work target: a 256-bit number that a block's hash (read as a little-endian
/// number) must not exceed, and its compact 32-bit form (a header's `bits`), as Bitcoin Core's
/// arith_uint256 reads and writes it (`SetCompact`, `GetCompact`). Held as eight 32-bit words,
/// most significant first: enough arithmetic for a retarget (a multiplication and a division
/// by numbers below 2^32), none for anything else.
public struct Target: Sendable, Hashable, Comparable {
    /// Most significant word first.
    var words: [UInt32]

    init(words: [UInt32]) {
        precondition(words.count == 8, "a target is 256 bits")
        self.words = words
    }

    /// The target `bits` encode; nil for a negative or overflowing encoding, which no valid
    /// header has (Core's `SetCompact` flags both: negative is the sign bit set on a number
    /// that is not zero once shifted into place, so 0x01803456, which reads as 0, is not).
    public init?(bits: UInt32) {
        let exponent = Int(bits >> 24)
        let mantissa = bits & 0x007f_ffff
        // A target of 256 bits: the mantissa's three bytes, shifted `exponent - 3` bytes left.
        var bytes = [UInt8](repeating: 0, count: 32)
        let mantissaBytes = [UInt8(mantissa >> 16), UInt8((mantissa >> 8) & 0xff), UInt8(mantissa & 0xff)]
        for (offset, byte) in mantissaBytes.enumerated() where byte != 0 {
            // Byte `offset` of the mantissa is the (exponent - 1 - offset)th byte from the right.
            let position = exponent - 1 - offset
            guard position >= 0 else { continue }
            guard position < 32 else { return nil }
            bytes[31 - position] = byte
        }
        guard bits & 0x0080_0000 == 0 || !bytes.contains(where: { $0 != 0 }) else { return nil }
        self.init(bigEndian: bytes)
    }

    /// The number whose 32 bytes, most significant first, are `bytes`.
    public init(bigEndian bytes: [UInt8]) {
        precondition(bytes.count == 32, "a target is 32 bytes")
        words = (0..<8).map { index in
            bytes[(index * 4)..<(index * 4 + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
    }

    /// A block hash in internal byte order (as hashed) read as the number it is compared as.
    public init(hash: [UInt8]) {
        self.init(bigEndian: Array(hash.reversed()))
    }

    /// The 32 bytes, most significant first.
    public var bigEndian: [UInt8] {
        words.flatMap { [UInt8($0 >> 24), UInt8(($0 >> 16) & 0xff), UInt8(($0 >> 8) & 0xff), UInt8($0 & 0xff)] }
    }

    /// The compact form (Core's `GetCompact`): the bits a header carries for this target.
    public var bits: UInt32 {
        var bytes = bigEndian[...]
        while let first = bytes.first, first == 0 { bytes = bytes.dropFirst() }
        var size = bytes.count
        // The top three bytes (a shorter number sits at the top of the three).
        var mantissa: UInt32 = 0
        for (index, byte) in bytes.prefix(3).enumerated() { mantissa |= UInt32(byte) << (8 * (2 - index)) }
        // The mantissa is signed: a top bit set moves one byte into the exponent.
        if mantissa & 0x0080_0000 != 0 {
            mantissa >>= 8
            size += 1
        }
        return UInt32(size) << 24 | mantissa
    }

    /// `self * factor / divisor`, rounded down, through a 288-bit product (so that a target as
    /// easy as regtest's is scaled right); nil when the result itself passes 256 bits.
    public func scaled(by factor: UInt32, dividedBy divisor: UInt32) -> Target? {
        precondition(divisor > 0, "division by zero")
        var product = [UInt32](repeating: 0, count: 9)
        var carry: UInt64 = 0
        for index in stride(from: 7, through: 0, by: -1) {
            let value = UInt64(words[index]) * UInt64(factor) + carry
            product[index + 1] = UInt32(truncatingIfNeeded: value)
            carry = value >> 32
        }
        product[0] = UInt32(carry)
        var quotient = [UInt32](repeating: 0, count: 9)
        var remainder: UInt64 = 0
        for index in 0..<9 {
            let value = remainder << 32 | UInt64(product[index])
            quotient[index] = UInt32(value / UInt64(divisor))
            remainder = value % UInt64(divisor)
        }
        return quotient[0] == 0 ? Target(words: Array(quotient[1...])) : nil
    }

    public static func < (lhs: Target, rhs: Target) -> Bool {
        lhs.words.lexicographicallyPrecedes(rhs.words)
    }
}

extension BlockHeader {
    /// Whether its hash, read as a number, is at most the target of its own `bits` (and those
    /// bits are a valid encoding): the work a miner did for it. Which bits the header must
    /// carry is the chain's rule (``ChainParameters``).
    public var meetsItsProofOfWork: Bool {
        guard let target = Target(bits: bits) else { return false }
        return Target(hash: hash) <= target
    }
}
