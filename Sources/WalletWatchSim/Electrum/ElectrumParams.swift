/// A call's params, given by position (an array) or by name (an object, with the names the
/// protocol's method descriptions use), read and checked with ElectrumX's error messages.
struct ElectrumParams: Sendable {
    let raw: JSONValue?

    /// The param at `index`, or named `name`.
    subscript(_ index: Int, _ name: String) -> JSONValue? {
        switch raw {
        case .array(let values)?: index < values.count ? values[index] : nil
        case .object?: raw?[name]
        default: nil
        }
    }

    /// A script hash: 64 hex digits (32 bytes), returned in lowercase.
    func scripthash(_ index: Int = 0) throws(ElectrumError) -> String {
        let value = self[index, "scripthash"]
        guard case .string(let text)? = value, text.utf8.count == 64, text.allSatisfy(\.isHexDigit) else {
            throw .bad("\(Self.python(value)) is not a valid script hash")
        }
        return text.lowercased()
    }

    /// A transaction hash: 64 hex digits, returned in lowercase.
    func txid(_ index: Int = 0) throws(ElectrumError) -> String {
        let value = self[index, "tx_hash"]
        guard case .string(let text)? = value, text.utf8.count == 64, text.allSatisfy(\.isHexDigit) else {
            throw .bad("\(Self.python(value)) should be a transaction hash")
        }
        return text.lowercased()
    }

    /// A non-negative integer (numbers and numeric strings, as Python's `int()` takes them), or
    /// `absent` when the param is missing.
    func nonNegative(_ index: Int, _ name: String, absent: Int? = nil) throws(ElectrumError) -> Int {
        let value = self[index, name]
        if value == nil, let absent { return absent }
        let number: Int? = switch value {
        case .int(let n)?: Int(exactly: n)
        case .double(let d)? where d.isFinite: Int(d)
        case .string(let s)?: Int(s.trimmingSpaces)
        case .bool(let b)?: b ? 1 : 0
        default: nil
        }
        guard let number, number >= 0 else { throw .bad("\(Self.python(value)) should be a non-negative integer") }
        return number
    }

    /// A boolean (`default` when missing).
    func boolean(_ index: Int, _ name: String, default fallback: Bool) -> Bool? {
        switch self[index, name] {
        case nil, .null?: fallback
        case .bool(let value)?: value
        default: nil
        }
    }

    /// How Python's `str()` shows a value in ElectrumX's messages.
    static func python(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: "None"
        case .bool(let b)?: b ? "True" : "False"
        case .int(let n)?: String(n)
        case .double(let d)?: String(d)
        case .string(let s)?: s
        case .array(let values)?: "[" + values.map { value in
            if case .string(let s) = value { return "'\(s)'" }
            return python(value)
        }.joined(separator: ", ") + "]"
        case .object?: "{...}"
        }
    }
}

private extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
