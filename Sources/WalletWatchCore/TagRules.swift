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
        guard text.count == 6, text.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
            throw UsageError("colour '\(raw)' is not accepted; write it as #RRGGBB, e.g. #2E86DE")
        }
        return "#" + text.uppercased()
    }

    /// Exactly one emoji (one grapheme, which may be built of several code points, like 👨‍👩‍👧):
    /// one shown as an emoji by default, or made one by the emoji variation selector (✈️) or a
    /// keycap (#️⃣). Digits, `#` and `*` count as emoji characters in Unicode, so that property
    /// alone would let "5" with an accent through.
    public static func emoji(_ raw: String) throws(UsageError) -> String {
        let text = raw.trimmingSpaces
        guard text.count == 1, let character = text.first, !character.isASCII else {
            throw UsageError("'\(raw)' is not one emoji; give a single emoji such as 🏠")
        }
        let scalars = character.unicodeScalars
        let presented = scalars.contains { $0.properties.isEmojiPresentation }
            || scalars.contains { $0.properties.isEmoji } && scalars.contains { $0.value == 0xFE0F || $0.value == 0x20E3 }
        guard presented else {
            throw UsageError("'\(raw)' is not one emoji; give a single emoji such as 🏠")
        }
        return text
    }
}
