/// The rules every user-given name follows (assets, goals, tags).
public enum Name {
    /// The longest name accepted, in characters.
    public static let maximumLength = 64

    /// The name trimmed of surrounding spaces, or a usage error saying what is accepted.
    public static func validated(_ raw: String, what: String) throws(UsageError) -> String {
        let name = raw.trimmingSpaces
        guard !name.isEmpty else { throw UsageError("\(what) name is empty; give it at least one character") }
        guard name.count <= maximumLength else {
            throw UsageError("\(what) name '\(name.prefix(20))…' is \(name.count) characters; at most \(maximumLength) are accepted")
        }
        // The control characters (Unicode's Cc) are exactly U+0000-001F and U+007F-009F: a range
        // check, not a property lookup per character (an import checks millions of names).
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw UsageError("\(what) name contains a control character; use printable characters only")
        }
        return name
    }

    /// The key under which names are compared: case-insensitive for every script.
    public static func key(_ name: String) -> String { name.trimmingSpaces.lowercased() }
}
