/// XXH64, the 64-bit xxHash (Yann Collet; specified in the xxHash repository's
/// `doc/xxhash_spec.md`), computed as bytes arrive.
///
/// It tells whether a body is the one seen last time (barkd's history, whose digest decides
/// that nothing changed and nothing needs decoding), not who wrote it: a source could send a
/// body made to collide, but a source can as easily lie in plain text, and an accidental
/// collision between two histories has a chance of 2^-64. It runs at several GB/s in plain
/// Swift, where SHA-256 (with the CPU's SHA extensions) takes longer than the network needs to
/// deliver the body over loopback.
public struct XXH64: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private let seed: UInt64
    private var v1, v2, v3, v4: UInt64
    private var length: UInt64 = 0
    /// Bytes of an incomplete 32-byte stripe, and how many.
    private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var pendingCount = 0

    public init(seed: UInt64 = 0) {
        self.seed = seed
        v1 = seed &+ Self.prime1 &+ Self.prime2
        v2 = seed &+ Self.prime2
        v3 = seed
        v4 = seed &- Self.prime1
    }

    /// The digest of `bytes` at once.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hasher = XXH64(seed: seed)
        hasher.update(bytes)
        return hasher.finalize()
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        (accumulator &+ lane &* prime2).rotatedLeft(31) &* prime1
    }

    @inline(__always)
    private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
        (accumulator ^ round(0, value)) &* prime1 &+ prime4
    }

    @inline(__always)
    private static func lane(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Takes the next bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            let (start, taken) = (pendingCount, min(32 - pendingCount, bytes.count))
            var stripe = pending
            withUnsafeMutableBytes(of: &stripe) { $0.baseAddress!.advanced(by: start).copyMemory(from: base, byteCount: taken) }
            pending = stripe
            pendingCount += taken
            offset = taken
            guard pendingCount == 32 else { return }
            withUnsafeBytes(of: &stripe) { consume($0.baseAddress!, 0) }
            pendingCount = 0
        }
        var (a, b, c, d) = (v1, v2, v3, v4)
        while offset + 32 <= bytes.count {
            a = Self.round(a, Self.lane(base, offset))
            b = Self.round(b, Self.lane(base, offset + 8))
            c = Self.round(c, Self.lane(base, offset + 16))
            d = Self.round(d, Self.lane(base, offset + 24))
            offset += 32
        }
        (v1, v2, v3, v4) = (a, b, c, d)
        if offset < bytes.count {
            let rest = bytes.count - offset
            var stripe = pending
            withUnsafeMutableBytes(of: &stripe) { $0.baseAddress!.copyMemory(from: base + offset, byteCount: rest) }
            pending = stripe
            pendingCount = rest
        }
    }

    private mutating func consume(_ stripe: UnsafeRawPointer, _ offset: Int) {
        v1 = Self.round(v1, Self.lane(stripe, offset))
        v2 = Self.round(v2, Self.lane(stripe, offset + 8))
        v3 = Self.round(v3, Self.lane(stripe, offset + 16))
        v4 = Self.round(v4, Self.lane(stripe, offset + 24))
    }

    /// The digest of every byte taken.
    public func finalize() -> UInt64 {
        var accumulator: UInt64
        if length >= 32 {
            accumulator = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
            accumulator = Self.merge(accumulator, v1)
            accumulator = Self.merge(accumulator, v2)
            accumulator = Self.merge(accumulator, v3)
            accumulator = Self.merge(accumulator, v4)
        } else {
            accumulator = seed &+ Self.prime5
        }
        accumulator &+= length
        var stripe = pending
        let count = pendingCount
        withUnsafeBytes(of: &stripe) { raw in
            let base = raw.baseAddress!
            var offset = 0
            while offset + 8 <= count {
                accumulator ^= Self.round(0, Self.lane(base, offset))
                accumulator = accumulator.rotatedLeft(27) &* Self.prime1 &+ Self.prime4
                offset += 8
            }
            if offset + 4 <= count {
                let word = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                accumulator ^= word &* Self.prime1
                accumulator = accumulator.rotatedLeft(23) &* Self.prime2 &+ Self.prime3
                offset += 4
            }
            while offset < count {
                accumulator ^= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &* Self.prime5
                accumulator = accumulator.rotatedLeft(11) &* Self.prime1
                offset += 1
            }
        }
        accumulator ^= accumulator >> 33
        accumulator &*= Self.prime2
        accumulator ^= accumulator >> 29
        accumulator &*= Self.prime3
        accumulator ^= accumulator >> 32
        return accumulator
    }

    /// The digest as 16 lower-case hexadecimal digits.
    public func hexDigest() -> String {
        let hex = String(finalize(), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 &- count))
    }
}
