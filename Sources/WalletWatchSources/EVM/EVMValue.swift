import WalletWatchCore

/// Decodes the parts of an EVM answer (a JSON-RPC result, an explorer's record) that walletwatch
/// reads, refusing what does not match: a quantity that is not `0x`-hex, a result of the wrong
/// JSON type, a number too large to be an amount (SPEC.md section 26's refused answers). Each
/// error names the field.
struct EVMValue {
    let value: JSONValue
    /// Where it is, for messages: `result`, `result[3].value`, `txlist[12].gasUsed`.
    let path: String

    init(_ value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    func fail(_ problem: String) -> EVMAnswerError { EVMAnswerError(path: path, problem: problem) }

    var isNull: Bool { value == .null }

    /// The member `key` of an object (null when absent).
    subscript(key: String) -> EVMValue {
        EVMValue(value[key] ?? .null, path: path.isEmpty ? key : "\(path).\(key)")
    }

    func object() throws -> [JSONValue.Member] {
        guard case .object(let members) = value else { throw fail("expected an object, got \(kind)") }
        return members
    }

    func array() throws -> [EVMValue] {
        guard case .array(let elements) = value else { throw fail("expected an array, got \(kind)") }
        return elements.enumerated().map { EVMValue($1, path: "\(path)[\($0)]") }
    }

    func string() throws -> String {
        guard case .string(let text) = value else { throw fail("expected a string, got \(kind)") }
        return text
    }

    /// A JSON-RPC quantity: `0x` and hex digits, at most 128 bits less the sign. A decimal
    /// string is refused (a node that sends one is not speaking the Ethereum JSON-RPC API).
    func quantity() throws -> Int128 {
        let text = try string()
        guard let number = EVMValue.hexQuantity(text) else {
            throw fail("expected a 0x-hex quantity, got \(JSONReader.shown(text))")
        }
        return number
    }

    /// A quantity that fits 64 bits (a block number, a nonce, a timestamp).
    func smallQuantity() throws -> Int64 {
        let number = try quantity()
        guard number <= Int128(Int64.max) else { throw fail("the quantity \(number) is too large for a block number or count") }
        return Int64(number)
    }

    /// 32 bytes of hex (a hash).
    func hash() throws -> String {
        let text = try string().lowercased()
        guard text.utf8.count == 66, text.hasPrefix("0x"), text.utf8.dropFirst(2).allSatisfy(EVMValue.isHex) else {
            throw fail("expected a 32-byte 0x-hex hash, got \(JSONReader.shown(text))")
        }
        return text
    }

    func address() throws -> EVMAddress {
        let text = try string()
        guard let address = EVMAddress(text) else { throw fail("expected an address, got \(JSONReader.shown(text))") }
        return address
    }

    /// An address, or nil for null or the empty string (a contract creation's `to`).
    func optionalAddress() throws -> EVMAddress? {
        if isNull { return nil }
        if case .string(let text) = value, text.isEmpty { return nil }
        return try address()
    }

    /// `0x` and an even number of hex digits (call data, a log's data).
    func data() throws -> String {
        let text = try string()
        guard text.hasPrefix("0x"), text.utf8.count % 2 == 0, text.utf8.dropFirst(2).allSatisfy(EVMValue.isHex) else {
            throw fail("expected 0x-hex data, got \(JSONReader.shown(text))")
        }
        return text.lowercased()
    }

    /// A decimal string as explorers write every number (`"12345"`), at most 128 bits less the sign.
    func decimalString() throws -> Int128 {
        let text = try string()
        guard let number = EVMValue.decimal(text) else { throw fail("expected a whole number in a string, got \(JSONReader.shown(text))") }
        return number
    }

    func decimalInt64() throws -> Int64 {
        let number = try decimalString()
        guard number <= Int128(Int64.max) else { throw fail("the number \(number) is too large") }
        return Int64(number)
    }

    var kind: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func isHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) }

    /// `0x` then 1 to 32 hex digits (leading zeros allowed, as some nodes write them), below 2^127.
    static func hexQuantity(_ text: String) -> Int128? {
        let utf8 = Array(text.utf8)
        guard utf8.count > 2, utf8.count <= 66, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x") else { return nil }
        var value = UInt128(0)
        for byte in utf8.dropFirst(2) {
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 97...102: digit = byte - 87
            case 65...70: digit = byte - 55
            default: return nil
            }
            guard value >> 123 == 0 else { return nil }
            value = value << 4 | UInt128(digit)
        }
        guard value <= UInt128(Int128.max) else { return nil }
        return Int128(value)
    }

    /// A 32-byte ABI word (an `eth_call` result, a log's data) as an amount; nil above 2^127.
    static func word(_ data: String) -> Int128? {
        let digits = data.dropFirst(2)
        guard digits.count == 64 else { return nil }
        let significant = digits.drop { $0 == "0" }
        return significant.isEmpty ? 0 : hexQuantity("0x" + significant)
    }

    static func decimal(_ text: String) -> Int128? {
        guard !text.isEmpty, text.utf8.count <= 39, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int128(text)
    }

    /// `0x` hex of a block number, as JSON-RPC takes it.
    static func hex(_ number: Int64) -> String { "0x" + String(number, radix: 16) }
}

/// A part of an EVM answer that is not what the API documents.
struct EVMAnswerError: Error, CustomStringConvertible {
    let path: String
    let problem: String
    var description: String { path.isEmpty ? problem : "\(path): \(problem)" }
}
