/// A JSON value as written: objects keep their keys in order, numbers their text (exact at any
/// size), so that two servers' answers can be compared key by key and digit by digit.
indirect enum OrderedJSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([OrderedJSON])
    case object([(key: String, value: OrderedJSON)])

    static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)), (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && zip(a, b).allSatisfy { $0.value == $1.value }
        default: false
        }
    }

    subscript(key: String) -> OrderedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var array: [OrderedJSON]? {
        if case .array(let values) = self { return values }
        return nil
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .string(let text): "\"\(text)\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        }
    }

    /// Parses `bytes`; nil when they are not one JSON value.
    static func parse(_ bytes: [UInt8]) -> OrderedJSON? {
        var parser = Parser(bytes: bytes)
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.index == bytes.count ? value : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() -> OrderedJSON? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: OrderedJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let member = value() else { return nil }
                    members.append((key, member))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { return nil }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var values: [OrderedJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
                while true {
                    guard let element = value() else { return nil }
                    values.append(element)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { return nil }
                    index += 1
                    return .array(values)
                }
            case UInt8(ascii: "\""):
                return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default:
                let start = index
                while index < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[index]) { index += 1 }
                return index > start ? .number(String(decoding: bytes[start..<index], as: UTF8.self)) : nil
            }
        }

        mutating func literal(_ text: String, _ value: OrderedJSON) -> OrderedJSON? {
            let utf8 = Array(text.utf8)
            guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else { return nil }
            index += utf8.count
            return value
        }

        /// A string; escapes other than `\"`, `\\` and `\/` are kept as written (the answers
        /// compared here hold none).
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                if byte == UInt8(ascii: "\\"), index < bytes.count {
                    let next = bytes[index]
                    index += 1
                    if [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/")].contains(next) { out.append(next) } else { out += [byte, next] }
                    continue
                }
                out.append(byte)
            }
            return nil
        }
    }
}
