/// An 80-byte block header (version, previous block, merkle root, time, target, nonce). An
/// Electrum server sends headers raw; walletwatch dates confirmed transactions by their
/// block's `time`, and the simulator builds a chain of them that a real server can index.
public struct BlockHeader: Sendable, Hashable {
    /// A header's size on the wire.
    public static let size = 80

    /// nVersion.
    public var version: Int32
    /// The previous block's hash, in internal byte order (as hashed, not as displayed).
    public var previousHash: [UInt8]
    /// The merkle root of the block's txids, in internal byte order.
    public var merkleRoot: [UInt8]
    /// Unix seconds, as the miner wrote them.
    public var time: UInt32
    /// The compact target ("nBits").
    public var bits: UInt32
    /// nNonce.
    public var nonce: UInt32

    /// A header made of these parts; the hashes are 32 bytes in internal order.
    public init(version: Int32, previousHash: [UInt8], merkleRoot: [UInt8], time: UInt32, bits: UInt32, nonce: UInt32) {
        precondition(previousHash.count == 32 && merkleRoot.count == 32, "block header hashes are 32 bytes")
        self.version = version
        self.previousHash = previousHash
        self.merkleRoot = merkleRoot
        self.time = time
        self.bits = bits
        self.nonce = nonce
    }

    /// Reads exactly 80 bytes; anything else is refused.
    public init(parsing bytes: [UInt8]) throws(BlockHeaderError) {
        guard bytes.count == Self.size else { throw BlockHeaderError(byteCount: bytes.count) }
        var reader = ByteReader(bytes)
        do {
            version = Int32(bitPattern: try reader.littleEndian(UInt32.self, "version"))
            previousHash = try reader.bytes(32, "previous hash")
            merkleRoot = try reader.bytes(32, "merkle root")
            time = try reader.littleEndian(UInt32.self, "time")
            bits = try reader.littleEndian(UInt32.self, "bits")
            nonce = try reader.littleEndian(UInt32.self, "nonce")
        } catch {
            // Unreachable: 80 bytes hold every field.
            throw BlockHeaderError(byteCount: bytes.count)
        }
    }

    /// The 80 bytes.
    public var serialized: [UInt8] {
        RawTransaction.littleEndian(UInt32(bitPattern: version)) + previousHash + merkleRoot + RawTransaction.littleEndian(time)
            + RawTransaction.littleEndian(bits) + RawTransaction.littleEndian(nonce)
    }

    /// The block hash in internal byte order: double SHA-256 of the 80 bytes.
    public var hash: [UInt8] { Hashes.doubleSHA256(serialized) }

    /// The block hash as displayed (bytes reversed, hex).
    public var hashHex: String { Hex.encode(hash.reversed()) }

    /// The previous block's hash as displayed.
    public var previousHashHex: String { Hex.encode(previousHash.reversed()) }

    /// The merkle root of `txids` (each in internal byte order, the coinbase first): pairs
    /// hashed level by level, an odd level's last hash paired with itself (Bitcoin's rule).
    public static func merkleRoot(_ txids: [[UInt8]]) -> [UInt8] {
        guard !txids.isEmpty else { return [UInt8](repeating: 0, count: 32) }
        var level = txids
        while level.count > 1 {
            if level.count % 2 == 1 { level.append(level[level.count - 1]) }
            level = stride(from: 0, to: level.count, by: 2).map { Hashes.doubleSHA256(level[$0] + level[$0 + 1]) }
        }
        return level[0]
    }
}

/// A header that is not 80 bytes.
public struct BlockHeaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many bytes arrived.
    public let byteCount: Int

    /// The error for a header of `byteCount` bytes.
    public init(byteCount: Int) { self.byteCount = byteCount }

    public var description: String { "a block header is 80 bytes, not \(byteCount)" }
}
