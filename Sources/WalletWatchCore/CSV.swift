/// Comma-separated values as RFC 4180 writes them: fields separated by commas, records ended
/// by CRLF, a field quoted when it holds a comma, a double quote, CR or LF, and a double quote
/// inside a quoted field written twice. What is written is also safe to open in a spreadsheet:
/// see ``neutralized(_:)``.
public enum CSV {
    /// One record of a parsed file, with the line it starts on (1-based).
    public struct Record: Hashable, Sendable {
        public let line: Int
        public let fields: [String]
    }

    /// A file that is not CSV: an unterminated quoted field, or a quote in the middle of a field.
    public struct SyntaxError: Error, Hashable, Sendable {
        public let line: Int
        public let reason: String
    }

    /// A field, neutralized for spreadsheets and quoted only when it has to be.
    public static func field(_ text: String) -> String {
        let text = neutralized(text)
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }

    /// `text` with a leading `'` when a spreadsheet would run it as a formula: it starts with
    /// `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's advice against CSV injection). A
    /// note, a label or a name from a source such as `=cmd|' /C calc'!A0` or `@SUM(A1)` then
    /// opens as the text it is. Plain numbers (`-0.015`, `-1500`, `+2`) are left as they are, so
    /// that amounts stay numbers.
    public static func neutralized(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first), !isPlainNumber(text) else {
            return text
        }
        return "'" + text
    }

    /// An optional sign, digits, and optionally a point and more digits: nothing a spreadsheet
    /// could run.
    static func isPlainNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars
        if let sign = scalars.first, sign == "-" || sign == "+" { scalars.removeFirst() }
        let parts = scalars.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring.UnicodeScalarView.SubSequence) in !part.isEmpty && part.allSatisfy { $0.value >= 0x30 && $0.value <= 0x39 } }
        return (1...2).contains(parts.count) && parts.allSatisfy(isDigits)
    }

    /// One record, CRLF-terminated.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// A whole file: the header, then the rows.
    public static func document(header: [String], rows: [[String]]) -> String {
        var text = record(header)
        for row in rows { text += record(row) }
        return text
    }

    /// Parses CSV text (CRLF or LF line ends; a leading byte-order mark is ignored). Blank lines
    /// are skipped.
    public static func parse(_ text: String) throws(SyntaxError) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var recordLine = 1
        var quoted = false
        var afterQuote = false
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }

        func endRecord() {
            fields.append(String(field))
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
            field = String.UnicodeScalarView()
            afterQuote = false
        }

        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if quoted {
                if scalar == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                fields.append(String(field))
                field = String.UnicodeScalarView()
                afterQuote = false
            case "\r" where index < scalars.count && scalars[index] == "\n":
                continue
            case "\n", "\r":
                endRecord()
                line += 1
                recordLine = line
            case "\"":
                guard field.isEmpty, !afterQuote else {
                    throw SyntaxError(line: line, reason: "a double quote inside a field that is not quoted (write it as \"\" inside a quoted field)")
                }
                quoted = true
            default:
                guard !afterQuote else {
                    throw SyntaxError(line: line, reason: "text after the closing quote of a field (put a comma after it)")
                }
                field.append(scalar)
            }
        }
        if quoted { throw SyntaxError(line: recordLine, reason: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || afterQuote { endRecord() }
        return records
    }
}

extension String {
    /// Every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
