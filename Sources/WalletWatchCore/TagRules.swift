/// The rules for tag names, colours and emoji.
public enum TagRules {
    /// A valid tag name: trimmed, 1 to 64 characters, no comma (BIP-329 exports separate a
    /// transaction's labels with commas, so a comma inside a name would not survive a round trip).
    public static func name(_ raw: String) throws(UsageError) -> String {
        let name = try Name.validated(raw, what: "tag")
        guard !name.contains(",") else {
            throw UsageError("tag name '\(name)' contains a comma; commas separate labels in BIP-329 files, so use another character")
        }
        return name
    }

    /// `#RRGGBB`, upper-cased; the leading `#` may be left out.
    public static func color(_ raw: String) throws(UsageError) -> String {
        let text = raw.trimmingSpaces.hasPrefix("#") ? String(raw.trimmingSpaces.dropFirst()) : raw.trimmingSpaces
        guard text.count == 6, text.allSatisfy(\.isHexDigit) else {
            throw UsageError("colour '\(raw)' is not accepted; write it as #RRGGBB, e.g. #2E86DE")
        }
        return "#" + text.uppercased()
    }

    /// Exactly one emoji (one grapheme, which may be built of several code points, like 👨‍👩‍👧).
    public static func emoji(_ raw: String) throws(UsageError) -> String {
        let text = raw.trimmingSpaces
        guard text.count == 1, let character = text.first, !character.isASCII,
              character.unicodeScalars.contains(where: { $0.properties.isEmoji })
        else {
            throw UsageError("'\(raw)' is not one emoji; give a single emoji such as 🏠")
        }
        return text
    }
}
