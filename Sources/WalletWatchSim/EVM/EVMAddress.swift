import Crypto
import WalletWatchBitcoin

/// A 20-byte account or contract address, kept as nodes write it: `0x` and 40 lower-case hex
/// digits. Accepted in any case (a checksummed address too; the simulator does not check EIP-55,
/// which needs Keccak-256, as JSON-RPC nodes do not).
public struct EVMAddress: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// `0x` and 40 lower-case hex digits.
    public let hex: String

    /// The address written as `0x` and 40 hex digits (either case); nil otherwise.
    public init?(_ text: String) {
        guard text.utf8.count == 42, text.hasPrefix("0x") || text.hasPrefix("0X"), Hex.decode(text.dropFirst(2)) != nil else { return nil }
        hex = "0x" + text.dropFirst(2).lowercased()
    }

    private init(unchecked hex: String) {
        self.hex = hex
    }

    /// The address of these 20 bytes.
    init(bytes: some Collection<UInt8>) {
        precondition(bytes.count == 20, "an address has 20 bytes")
        hex = "0x" + Hex.encode(bytes)
    }

    /// An address derived from `label` (the last 20 bytes of its SHA-256): a named account's or
    /// a token's when the scenario gives none. Nobody holds its key.
    static func derived(_ label: String) -> EVMAddress {
        EVMAddress(bytes: Array(SHA256.hash(data: Array("walletwatch-sim evm \(label)".utf8))).suffix(20))
    }

    /// The zero address: where minted tokens come from.
    public static let zero = EVMAddress(unchecked: "0x" + String(repeating: "0", count: 40))

    /// The 20 bytes.
    var bytes: [UInt8] { Hex.decode(hex.dropFirst(2)) ?? [] }

    /// The address as a 32-byte log topic or ABI word: 12 zero bytes, then the address.
    var word: String { "0x" + String(repeating: "0", count: 24) + hex.dropFirst(2) }

    /// The address held in a 32-byte topic or ABI word (its last 20 bytes), when the first 12 are zero.
    init?(word: String) {
        let digits = word.dropFirst(2)
        guard word.hasPrefix("0x"), digits.utf8.count == 64, digits.prefix(24).allSatisfy({ $0 == "0" }) else { return nil }
        self.init("0x" + digits.suffix(40))
    }

    public var description: String { hex }

    public static func < (lhs: EVMAddress, rhs: EVMAddress) -> Bool { lhs.hex < rhs.hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let address = EVMAddress(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not an address (0x and 40 hex digits)")
        }
        self = address
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

/// A 32-byte hash (a transaction's or a block's), written `0x` and 64 lower-case hex digits.
/// The simulator's hashes are SHA-256 of what they name, not Keccak-256 of RLP as Ethereum's
/// are: unique and stable, with the right shape, but not Ethereum-valid.
public struct EVMHash: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `0x` and 64 lower-case hex digits.
    public let hex: String

    /// A hash written as `0x` and 64 hex digits (either case); nil otherwise.
    public init?(_ text: String) {
        guard text.utf8.count == 66, text.hasPrefix("0x"), Hex.decode(text.dropFirst(2)) != nil else { return nil }
        hex = text.lowercased()
    }

    /// The SHA-256 of `parts`, each followed by a separator.
    init(hashing parts: [String]) {
        var hasher = SHA256()
        for part in parts {
            hasher.update(data: Array(part.utf8))
            hasher.update(data: [0x1f])
        }
        hex = "0x" + Hex.encode(hasher.finalize())
    }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let hash = EVMHash(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a hash (0x and 64 hex digits)")
        }
        self = hash
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
