/// Which characters must never reach a terminal as they are, and how they are shown instead.
///
/// Names, notes, tags, txids and error texts come from users and from sources walletwatch does
/// not control. A terminal obeys the control characters in what it prints: `ESC ] 0 ; … BEL`
/// retitles the window, `ESC [ 2 J` clears the screen, a carriage return lets a line overwrite
/// what was printed before it, and the bidirectional overrides make text read in another order
/// than it is stored. So every such character is shown as its escape instead, in Swift's
/// notation with lowercase hexadecimal digits: ESC is `\u{1b}`, BEL `\u{7}`, DEL `\u{7f}`,
/// U+202E `\u{202e}`. A backslash is left alone (the escape of a text that already spells
/// `\u{1b}` looks the same; `--json` carries every string exactly).
public enum DisplaySafety {
    /// C0 controls (line breaks and tabs included), DEL, C1 controls, the line and paragraph
    /// separators (U+2028, U+2029), and the bidirectional embeddings, overrides and isolates
    /// (U+202A-U+202E, U+2066-U+2069).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every unsafe character written as its escape (`\u{1b}`).
    /// - parameter keepingLineBreaks: keep `\n` (and a `\r\n` pair) as they are, for text whose
    ///   line breaks are its own (a data file, a help text); a lone `\r` is still escaped.
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // Printable ASCII is safe: most text (a counterparty on every ingested movement) is
        // only that, and its bytes are checked much faster than its scalars are decoded.
        let printable = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 &- 0x20 < 0x5F } }
        if printable == true { return text }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if keepingLineBreaks && scalar == "\n" {
                result.append(scalar)
            } else if keepingLineBreaks && scalar == "\r" && pending == "\n" {
                result.append(scalar)
                result.append("\n")
                pending = scalars.next()
            } else if isUnsafe(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
