/// A value walletwatch writes into the config: a string, a whole number, a list, or an inline
/// table (`{ contract = "0x...", currency = "DAI" }`).
public indirect enum ConfigValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case array([ConfigValue])
    case inlineTable([ConfigEntry])

    /// The value as TOML writes it: strings as basic strings with every character TOML
    /// requires escaped (quotes, backslashes, control characters).
    var toml: String {
        switch self {
        case .string(let text): Self.basicString(text)
        case .integer(let number): String(number)
        case .array(let elements): "[" + elements.map(\.toml).joined(separator: ", ") + "]"
        case .inlineTable(let entries): entries.isEmpty ? "{}" : "{ " + entries.map(\.toml).joined(separator: ", ") + " }"
        }
    }

    /// `"text"` with `"`, `\` and control characters escaped (TOML 1.0, "String").
    static func basicString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// One `key = value` line of a config table.
public struct ConfigEntry: Sendable, Hashable {
    /// The key, as the config spells it (`token_file`).
    public let key: String
    public let value: ConfigValue

    public init(_ key: String, _ value: ConfigValue) {
        self.key = key
        self.value = value
    }

    /// `key = value`; a key that is not a bare TOML key is quoted.
    var toml: String {
        let bare = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
        return (bare ? key : ConfigValue.basicString(key)) + " = " + value.toml
    }
}

/// A `[[sources]]` table as `source add` appends it: a comment saying where it came from, then
/// its keys in the order given, each on its own line.
struct SourceBlock: Sendable, Hashable {
    /// Comment lines written under the header (without their `#`).
    var comments: [String]
    var entries: [ConfigEntry]

    /// The block's text, ending with a line feed.
    var text: String {
        (["[[sources]]"] + comments.map { "# " + $0 } + entries.map(\.toml)).joined(separator: "\n") + "\n"
    }

    /// The value of `key`, when the block has it.
    func value(_ key: String) -> ConfigValue? {
        entries.first { $0.key == key }?.value
    }

    /// The block with `key` set to `value`: replaced where it stands, else added at the end.
    func setting(_ key: String, _ value: ConfigValue) -> SourceBlock {
        var copy = self
        if let index = copy.entries.firstIndex(where: { $0.key == key }) {
            copy.entries[index] = ConfigEntry(key, value)
        } else {
            copy.entries.append(ConfigEntry(key, value))
        }
        return copy
    }

    /// The block without `key`.
    func removing(_ key: String) -> SourceBlock {
        var copy = self
        copy.entries.removeAll { $0.key == key }
        return copy
    }
}
