/// A JSON document with its keys in a fixed order, explicit nulls and exact numbers: what every
/// `--json` output and API response is built from, so that the CLI and the web view print the
/// same bytes for the same data.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// An integer: an amount in its smallest unit (128 bits: wei exceed 64), a count, an id.
    case int(Int128)
    /// A number written exactly as given (a decimal such as a rate or a fraction).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One key and its value in an object.
    public struct Member: Hashable, Sendable {
        public let key: String
        public let value: JSONValue
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key-value pairs, in the order given.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// A string, or null.
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// An integer, or null.
    public static func int(_ value: Int128?) -> JSONValue { value.map(JSONValue.int) ?? .null }

    /// A 64-bit integer (a count, an id, a time), or null.
    public static func int(_ value: Int64?) -> JSONValue { value.map { .int(Int128($0)) } ?? .null }

    /// A platform integer, or null.
    public static func int(_ value: Int?) -> JSONValue { value.map { .int(Int128($0)) } ?? .null }

    /// A boolean, or null.
    public static func bool(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

    /// The value for `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Compact JSON text.
    public var compact: String {
        var output = ""
        write(to: &output, indent: nil, depth: 0)
        return output
    }

    /// Indented JSON text (two spaces), as the CLI prints it.
    public var pretty: String {
        var output = ""
        write(to: &output, indent: "  ", depth: 0)
        return output
    }

    private func write(to output: inout String, indent: String?, depth: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .number(let text): output += text
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                JSONValue.newline(&output, indent, depth + 1)
                element.write(to: &output, indent: indent, depth: depth + 1)
            }
            JSONValue.newline(&output, indent, depth)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                JSONValue.newline(&output, indent, depth + 1)
                JSONValue.writeString(member.key, to: &output)
                output += indent == nil ? ":" : ": "
                member.value.write(to: &output, indent: indent, depth: depth + 1)
            }
            JSONValue.newline(&output, indent, depth)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, _ indent: String?, _ depth: Int) {
        guard let indent else { return }
        output += "\n" + String(repeating: indent, count: depth)
    }

    /// Writes a JSON string literal with the escapes RFC 8259 requires, and `\uXXXX` for the
    /// other characters a terminal would obey (DEL, C1 controls, bidirectional overrides; see
    /// ``DisplaySafety``): `--json` printed on a terminal stays inert, and a parser still reads
    /// the exact string.
    public static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where DisplaySafety.isUnsafe(scalar):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(Int128(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}
