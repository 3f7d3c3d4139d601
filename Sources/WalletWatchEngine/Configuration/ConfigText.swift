/// The bytes of a config file, read line by line as TOML lays them out, without parsing a value:
/// where each table header stands and which lines hold keys. `source add` and `source remove`
/// change a config the user wrote by hand; they do it on these bytes, so that every comment,
/// blank line and spelling the user chose stays as it was. Whatever they produce is then read
/// by ``ConfigLoader`` and compared with what was meant before anything is written: a
/// misreading here cannot reach the file.
struct ConfigText {
    /// What one line of the file is.
    enum LineKind: Equatable {
        /// Only spaces, tabs or a carriage return.
        case blank
        /// A comment and nothing else.
        case comment
        /// A table header: `[a.b]` or `[[a.b]]`, with its key path unquoted.
        case header(path: [String], arrayOfTables: Bool)
        /// A key, a value, or the continuation of a value that spans lines (a multi-line
        /// array or string).
        case content
    }

    /// One line: where it starts and ends in the bytes (the end includes its line feed).
    struct Line: Equatable {
        let start: Int
        let end: Int
        let kind: LineKind
    }

    let bytes: [UInt8]
    let lines: [Line]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        lines = Self.scan(bytes)
    }

    /// The byte ranges of the `[[sources]]` tables in the file's order, each from its header to
    /// the end of its last key line (a `[sources.x]` sub-table that follows belongs to it). Blank
    /// lines and comments after the last key are not part of it: they may introduce what follows.
    var sourceBlocks: [Range<Int>] {
        var blocks: [Range<Int>] = []
        var index = 0
        while index < lines.count {
            guard case .header(["sources"], true) = lines[index].kind else {
                index += 1
                continue
            }
            var last = index
            var next = index + 1
            while next < lines.count {
                if case .header(let path, _) = lines[next].kind, !(path.count > 1 && path[0] == "sources") { break }
                if lines[next].kind != .blank && lines[next].kind != .comment { last = next }
                next += 1
            }
            blocks.append(lines[index].start..<lines[last].end)
            index = next
        }
        return blocks
    }

    /// The bytes with `block` appended after one blank line (and a line feed first when the
    /// file does not end with one); the old bytes stay the exact beginning.
    func appending(_ block: String) -> [UInt8] {
        var result = bytes
        if !result.isEmpty {
            if result.last != UInt8(ascii: "\n") { result.append(UInt8(ascii: "\n")) }
            result.append(UInt8(ascii: "\n"))
        }
        result += Array(block.utf8)
        return result
    }

    /// The bytes without the `[[sources]]` table at `position` (0-based, in the file's order),
    /// and without the one blank line right before it when there is one (the line `appending`
    /// puts there); nil when there is no such table. Every other byte stays.
    func removingSourceBlock(at position: Int) -> [UInt8]? {
        let blocks = sourceBlocks
        guard blocks.indices.contains(position) else { return nil }
        var range = blocks[position]
        if let header = lines.firstIndex(where: { $0.start == range.lowerBound }), header > 0, lines[header - 1].kind == .blank {
            range = lines[header - 1].start..<range.upperBound
        }
        return Array(bytes[..<range.lowerBound]) + Array(bytes[range.upperBound...])
    }

    // MARK: - Scanning

    /// Where the scanner is between lines: inside a multi-line string, or inside brackets.
    private struct State {
        /// The delimiter of the multi-line string being read (`"""` or `'''`), if any.
        var multilineString: UInt8?
        /// Open `[` and `{` of a value.
        var depth = 0
    }

    private static func scan(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var state = State()
        var start = 0
        while start < bytes.count {
            let end = (bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? bytes.count
            let line = bytes[start..<end]
            let kind: LineKind
            if state.multilineString != nil || state.depth > 0 {
                kind = .content
                advance(&state, over: line)
            } else {
                kind = classify(line, state: &state)
            }
            lines.append(Line(start: start, end: end, kind: kind))
            start = end
        }
        return lines
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    /// A line that starts outside any value: blank, a comment, a header, or a key.
    private static func classify(_ line: ArraySlice<UInt8>, state: inout State) -> LineKind {
        guard let first = line.firstIndex(where: { !isSpace($0) }) else { return .blank }
        switch line[first] {
        case UInt8(ascii: "#"):
            return .comment
        case UInt8(ascii: "["):
            if let header = header(line[first...]) { return header }
            advance(&state, over: line)
            return .content
        default:
            advance(&state, over: line)
            return .content
        }
    }

    /// `[a."b".c]` or `[[a.b]]` followed by nothing but a comment: its key path; nil otherwise.
    private static func header(_ text: ArraySlice<UInt8>) -> LineKind? {
        let open = UInt8(ascii: "["), close = UInt8(ascii: "]")
        var index = text.startIndex
        let array = text.count > 1 && text[index + 1] == open
        index += array ? 2 : 1
        var path: [String] = []
        var part: [UInt8] = []
        var quote: UInt8?
        var closed = false
        while index < text.endIndex {
            let byte = text[index]
            if let delimiter = quote {
                if byte == UInt8(ascii: "\\") && delimiter == UInt8(ascii: "\"") && index + 1 < text.endIndex {
                    part.append(text[index + 1])
                    index += 2
                    continue
                }
                if byte == delimiter { quote = nil } else { part.append(byte) }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ".") {
                path.append(String(decoding: part, as: UTF8.self))
                part = []
            } else if byte == close {
                guard !array || (index + 1 < text.endIndex && text[index + 1] == close) else { return nil }
                index += array ? 2 : 1
                closed = true
                break
            } else if !isSpace(byte) {
                part.append(byte)
            }
            index += 1
        }
        guard closed else { return nil }
        path.append(String(decoding: part, as: UTF8.self))
        let rest = text[index...].drop(while: isSpace)
        guard rest.isEmpty || rest.first == UInt8(ascii: "#") else { return nil }
        return .header(path: path, arrayOfTables: array)
    }

    /// Follows strings, comments and brackets through `line`, so that the next line is known
    /// to start inside a multi-line string or an open array.
    private static func advance(_ state: inout State, over line: ArraySlice<UInt8>) {
        let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
        var index = line.startIndex
        func triple(_ delimiter: UInt8, at position: Int) -> Bool {
            position + 2 < line.endIndex && line[position] == delimiter && line[position + 1] == delimiter && line[position + 2] == delimiter
        }
        while index < line.endIndex {
            if let delimiter = state.multilineString {
                if delimiter == quote && line[index] == backslash {
                    index += 2
                    continue
                }
                if triple(delimiter, at: index) {
                    // Up to two more quotes may end the string's content (`""""` closes after one).
                    var after = index + 3
                    while after < line.endIndex && line[after] == delimiter && after < index + 5 { after += 1 }
                    state.multilineString = nil
                    index = after
                    continue
                }
                index += 1
                continue
            }
            let byte = line[index]
            if byte == UInt8(ascii: "#") { return }
            if byte == quote || byte == apostrophe {
                if triple(byte, at: index) {
                    state.multilineString = byte
                    index += 3
                    continue
                }
                // A one-line string: to its closing quote on this line.
                index += 1
                while index < line.endIndex && line[index] != byte && line[index] != UInt8(ascii: "\n") {
                    if byte == quote && line[index] == backslash { index += 1 }
                    index += 1
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { state.depth += 1 }
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { state.depth = max(0, state.depth - 1) }
            index += 1
        }
    }
}
