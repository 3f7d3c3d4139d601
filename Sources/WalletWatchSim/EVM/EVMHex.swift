import WalletWatchBitcoin

/// Ethereum JSON-RPC's hex encodings (the "quantity" and "data" of the execution APIs'
/// specification, ethereum/execution-apis): a quantity is `0x` and its digits without leading
/// zeros (`0x0` for zero), data is `0x` and two lower-case digits a byte.
enum EVMHex {
    /// A quantity: `0x` and lower-case hex digits, no leading zeros.
    static func quantity(_ value: some BinaryInteger) -> String { "0x" + String(value, radix: 16) }

    /// Data: `0x` and the bytes in lower-case hex.
    static func data(_ bytes: some Sequence<UInt8>) -> String { "0x" + Hex.encode(bytes) }

    /// A quantity read as geth reads one: `0x`, at least one digit, no leading zero; nil with
    /// geth's reason otherwise.
    static func parseQuantity(_ text: String) -> Result<Int128, EVMHexError> {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return .failure(text.isEmpty ? .empty : .noPrefix) }
        let digits = text.dropFirst(2)
        guard !digits.isEmpty else { return .failure(.empty) }
        guard digits.utf8.allSatisfy({ isHexDigit($0) }) else { return .failure(.invalid) }
        guard digits.count == 1 || digits.first != "0" else { return .failure(.leadingZero) }
        guard digits.count <= 32, let value = UInt128(digits, radix: 16) else { return .failure(.tooLarge) }
        guard value <= UInt128(Int128.max) else { return .failure(.tooLarge) }
        return .success(Int128(value))
    }

    /// A quantity that fits an `Int` (block numbers, gas, indexes).
    static func parseSmallQuantity(_ text: String) -> Result<Int, EVMHexError> {
        parseQuantity(text).flatMap { value in
            guard let small = Int(exactly: value), small <= Int(Int64.max) else { return .failure(.tooLarge64) }
            return .success(small)
        }
    }

    /// Whether `byte` is an ASCII hex digit (either case).
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// Data: `0x` and an even number of hex digits.
    static func parseData(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        return Hex.decode(text.dropFirst(2))
    }

    /// A 32-byte big-endian ABI word holding `value`.
    static func word(_ value: Int128) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 64 - digits.count) + digits
    }

    /// The ABI encoding of a function's single `string` result: offset, length, padded bytes.
    static func abiString(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let padded = bytes + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
        return word(32) + word(Int128(bytes.count)).dropFirst(2) + Hex.encode(padded)
    }
}

/// Why a hex quantity was refused, in geth's words (`common/hexutil`).
enum EVMHexError: Error, Sendable {
    case empty, noPrefix, leadingZero, invalid, tooLarge, tooLarge64

    var message: String {
        switch self {
        case .empty: "empty hex string"
        case .noPrefix: "hex string without 0x prefix"
        case .leadingZero: "hex number with leading zero digits"
        case .invalid: "invalid hex string"
        case .tooLarge: "hex number > 128 bits"
        case .tooLarge64: "hex number > 64 bits"
        }
    }
}

/// An amount of wei or token units in a scenario or a control request: a JSON integer, or (exact
/// beyond 2^53 in every JSON library) a string of decimal digits or `0x` hex. At most 2^127 - 1.
public struct EVMAmount: Hashable, Sendable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The amount in the smallest unit.
    public var value: Int128

    /// An amount.
    public init(_ value: Int128) {
        self.value = value
    }

    public init(integerLiteral value: Int64) {
        self.value = Int128(value)
    }

    /// Reads a decimal or `0x` string; nil when it is neither or negative.
    public init?(text: String) {
        if text.hasPrefix("0x") {
            guard case .success(let value) = EVMHex.parseQuantity(text) else { return nil }
            self.value = value
        } else {
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int128(text) else { return nil }
            self.value = value
        }
    }

    public var description: String { String(value) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            guard number >= 0 else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "an amount must not be negative") }
            value = Int128(number)
        } else if let text = try? container.decode(String.self), let amount = EVMAmount(text: text) {
            value = amount.value
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "an amount is a non-negative integer, or a string of decimal digits or 0x hex, below 2^127")
        }
    }

    /// Written as a string of decimal digits (exact in every JSON reader).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(value))
    }
}
