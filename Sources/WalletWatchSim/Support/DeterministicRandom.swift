/// SplitMix64: a tiny, fast generator whose output depends only on its seed, so generated
/// histories are the same on every run and every machine (unlike `SystemRandomNumberGenerator`).
struct DeterministicRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A generator for item `index` of the stream `seed`, independent of every other item, so
    /// that item N can be produced without producing items 0..<N (streaming and paging need it).
    init(seed: UInt64, index: UInt64, salt: UInt64 = 0) {
        state = DeterministicRandom.mix(seed ^ DeterministicRandom.mix(index &+ 0x9E37_79B9_7F4A_7C15 &* (salt &+ 1)))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return DeterministicRandom.mix(state)
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly chosen integer in `range`.
    mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        Int64.random(in: range, using: &self)
    }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool {
        Int(next() % 100) < percent
    }

    /// An amount spread evenly on a log scale between `low` and `high` (many small payments,
    /// a few large ones, like a real wallet).
    mutating func logAmount(_ low: Int64, _ high: Int64) -> Int64 {
        let fraction = Double(next() >> 11) / Double(1 << 53)
        let value = Double(low) * pow2(log2(Double(high) / Double(low)) * fraction)
        return max(low, min(high, Int64(value)))
    }

    /// `count` lowercase hex digits.
    mutating func hex(_ count: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            var word = next()
            for _ in 0..<16 where bytes.count < count {
                bytes.append(hexDigits[Int(word & 15)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `count` characters of the bech32 alphabet (address-looking, no checksum).
    mutating func bech32(_ count: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(bech32Alphabet[Int(next() % 32)]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
private let bech32Alphabet: [UInt8] = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

private func pow2(_ exponent: Double) -> Double {
    // exp2 without Foundation: split into an integer power and a short series for the rest.
    let whole = exponent.rounded(.down)
    let fraction = exponent - whole
    var result = 1.0
    var term = 1.0
    let ln2 = 0.6931471805599453
    for n in 1...12 {
        term *= fraction * ln2 / Double(n)
        result += term
    }
    return result * Double(sign: .plus, exponent: Int(whole), significand: 1.0)
}

private func log2(_ value: Double) -> Double {
    // Exponent plus a series for the significand in [1, 2).
    let exponent = Double(value.exponent)
    let significand = value.significand
    let y = (significand - 1) / (significand + 1)
    var sum = 0.0
    var power = y
    for n in stride(from: 1, through: 25, by: 2) {
        sum += power / Double(n)
        power *= y * y
    }
    return exponent + 2 * sum / 0.6931471805599453
}

/// Stable identifiers derived from text, so that the same address or txid always gets the
/// same script, block hash or prevout.
enum Fingerprint {
    /// FNV-1a, 64 bits.
    static func of(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// 64 hex digits that look like a txid or hash, derived from `text`.
    static func hash256(_ text: String) -> String {
        var random = DeterministicRandom(seed: of(text))
        return random.hex(64)
    }

    /// The hash of the block at `height` on a simulated chain that is not real (leading zeros,
    /// like a real one); block 0 is Bitcoin's real genesis block, which wallets check before they
    /// trust a chain. A block replaced by a reorg (`generation` above 0) gets another hash.
    static func blockHash(height: Int, generation: UInt32 = 0) -> String {
        if height == 0 { return "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f" }
        var random = DeterministicRandom(seed: 0xB10C ^ (UInt64(generation) << 32), index: UInt64(height))
        return "00000000000000000" + random.hex(47)
    }
}
