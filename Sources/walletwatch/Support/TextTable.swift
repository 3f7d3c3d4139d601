import WalletWatchCore

/// A plain-text table with aligned columns: numbers right-aligned, text left-aligned.
struct TextTable {
    enum Alignment { case left, right }

    struct Column {
        let title: String
        let alignment: Alignment
        init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    let columns: [Column]
    private(set) var rows: [[String]] = []

    init(_ columns: [Column]) { self.columns = columns }

    mutating func add(_ cells: [String]) {
        precondition(cells.count == columns.count, "a row needs one cell per column")
        rows.append(cells)
    }

    /// The table as lines of text, with a header row, for ``Output/lines(_:)``.
    func render() -> [String] {
        let all = [columns.map(\.title)] + rows
        let widths = columns.indices.map { index in all.map { DisplayWidth.of($0[index]) }.max() ?? 0 }
        return all.map { cells in
            zip(cells, columns).enumerated().map { index, pair in
                let (cell, column) = pair
                let padding = String(repeating: " ", count: widths[index] - DisplayWidth.of(cell))
                let isLast = index == columns.count - 1
                return column.alignment == .right ? padding + cell : (isLast ? cell : cell + padding)
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
    }
}

/// How many terminal columns a string takes once printed: wide East Asian characters and emoji
/// take two, and a control character the width of the escape ``Output`` shows it as.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        text.reduce(0) { total, character in
            let scalar = character.unicodeScalars.first!
            if character.unicodeScalars.contains(where: DisplaySafety.isUnsafe) {
                return total + DisplaySafety.escaped(String(character)).unicodeScalars.count
            }
            if character.unicodeScalars.count > 1 && scalar.properties.isEmoji { return total + 2 }
            if scalar.properties.isEmojiPresentation { return total + 2 }
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
                 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
                return total + 2
            default:
                return total + 1
            }
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
