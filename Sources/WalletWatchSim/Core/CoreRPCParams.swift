/// A Core RPC call's params (positional, or named as Core names them), read and checked.
struct CoreRPCParams: Sendable {
    let raw: JSONValue?

    /// The param at `index`, or named `name`.
    subscript(_ index: Int, _ name: String) -> JSONValue? {
        switch raw {
        case .array(let values)?: index < values.count && values[index] != .null ? values[index] : nil
        case .object?: raw?[name]
        default: nil
        }
    }

    /// How many params were given.
    var count: Int {
        switch raw {
        case .array(let values)?: values.count
        case .object(let members)?: members.count
        default: 0
        }
    }

    /// An integer param.
    func integer(_ index: Int, _ name: String) throws(CoreRPCError) -> Int {
        guard case .int(let value)? = self[index, name], let number = Int(exactly: value) else {
            throw CoreRPCError(-3, "Expected type number for \(name)")
        }
        return number
    }

    /// A hash param (64 hex digits), lowercased.
    func hash(_ index: Int, _ name: String) throws(CoreRPCError) -> String {
        guard case .string(let text)? = self[index, name], text.utf8.count == 64, text.allSatisfy(\.isHexDigit) else {
            throw .invalidParameter("\(name) must be of length 64 (not \(Self.length(self[index, name])), for '\(Self.text(self[index, name]))')")
        }
        return text.lowercased()
    }

    /// A verbosity: a number, or a boolean (false 0, true 1), `absent` when missing.
    func verbosity(_ index: Int, _ name: String, absent: Int) -> Int {
        switch self[index, name] {
        case .bool(let flag)?: flag ? 1 : 0
        case .int(let number)?: Int(number)
        default: absent
        }
    }

    private static func text(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { return text }
        return ""
    }

    private static func length(_ value: JSONValue?) -> Int { text(value).utf8.count }
}
