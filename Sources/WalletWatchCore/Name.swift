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
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UsageError("\(what) name contains a control character; use printable characters only")
        }
        return name
    }

    /// The key under which names are compared: case-insensitive for every script.
    public static func key(_ name: String) -> String { name.trimmingSpaces.lowercased() }
}
