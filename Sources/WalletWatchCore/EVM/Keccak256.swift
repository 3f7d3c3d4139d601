/// Keccak-256 as Ethereum uses it: the Keccak sponge with the original `0x01` padding (not
/// NIST's SHA3-256, whose padding is `0x06`), rate 136 bytes, 24 rounds of Keccak-f[1600].
///
/// EIP-55 address checksums and ERC-20 event topics need it, and none of the packages
/// walletwatch may use has it: swift-crypto offers no Keccak, and Debian 12's OpenSSL 3.0 has
/// SHA3 but gains `KECCAK-256` only in 3.2. Tested against the published vectors (the empty
/// string, "abc", EIP-55's own addresses) and, for inputs of every length up to three blocks,
/// against eth-hash (the Ethereum Foundation's Python Keccak).
public enum Keccak256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var state = [UInt64](repeating: 0, count: 25)
        var block = [UInt8](repeating: 0, count: rate)
        var filled = 0
        for byte in bytes {
            block[filled] = byte
            filled += 1
            if filled == rate {
                absorb(block, into: &state)
                filled = 0
            }
        }
        for index in filled..<rate { block[index] = 0 }
        block[filled] ^= 0x01
        block[rate - 1] ^= 0x80
        absorb(block, into: &state)
        var digest = [UInt8]()
        digest.reserveCapacity(32)
        for lane in state.prefix(4) {
            for shift in stride(from: 0, to: 64, by: 8) { digest.append(UInt8(truncatingIfNeeded: lane >> UInt64(shift))) }
        }
        return digest
    }

    /// The digest of a string's UTF-8 bytes.
    public static func hash(_ text: String) -> [UInt8] { hash(Array(text.utf8)) }

    /// Bytes absorbed per permutation (1600 - 2 x 256 bits).
    static let rate = 136

    private static func absorb(_ block: [UInt8], into state: inout [UInt64]) {
        for lane in 0..<(rate / 8) {
            var value: UInt64 = 0
            for byte in 0..<8 { value |= UInt64(block[lane * 8 + byte]) << UInt64(8 * byte) }
            state[lane] ^= value
        }
        permute(&state)
    }

    private static let roundConstants: [UInt64] = [
        0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A, 0x8000_0000_8000_8000,
        0x0000_0000_0000_808B, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
        0x0000_0000_0000_008A, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
        0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
        0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800A, 0x8000_0000_8000_000A,
        0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
    ]

    /// Rotation offsets of ρ, indexed by lane x + 5y.
    private static let rotations: [UInt64] = [
        0, 1, 62, 28, 27,
        36, 44, 6, 55, 20,
        3, 10, 43, 25, 39,
        41, 45, 15, 21, 8,
        18, 2, 61, 56, 14,
    ]

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        count == 0 ? value : (value << count) | (value >> (64 - count))
    }

    /// Keccak-f[1600]: θ, ρ and π, χ, ι, 24 times.
    private static func permute(_ a: inout [UInt64]) {
        var b = [UInt64](repeating: 0, count: 25)
        var c = [UInt64](repeating: 0, count: 5)
        for round in 0..<24 {
            for x in 0..<5 { c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] }
            for x in 0..<5 {
                let d = c[(x + 4) % 5] ^ rotate(c[(x + 1) % 5], 1)
                for y in stride(from: 0, to: 25, by: 5) { a[y + x] ^= d }
            }
            for x in 0..<5 {
                for y in 0..<5 {
                    // π moves lane (x, y) to (y, 2x + 3y).
                    b[y + 5 * ((2 * x + 3 * y) % 5)] = rotate(a[x + 5 * y], rotations[x + 5 * y])
                }
            }
            for y in stride(from: 0, to: 25, by: 5) {
                for x in 0..<5 { a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]) }
            }
            a[0] ^= roundConstants[round]
        }
    }
}
