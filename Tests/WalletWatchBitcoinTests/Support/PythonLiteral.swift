import Foundation

/// Just enough of Python's literal syntax to read the lists of sipa's bech32 `tests.py`: strings
/// (with `\x` escapes and `+` concatenation), integers, lists and tuples, and `#` comments, each
/// kept as the note of an element: the one it follows on the same line, else the one below it.
indirect enum PythonValue: Equatable {
    case string(String)
    case integer(Int)
    case list([PythonValue])

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var integer: Int? {
        if case .integer(let value) = self { value } else { nil }
    }

    var list: [PythonValue]? {
        if case .list(let value) = self { value } else { nil }
    }
}

/// One element of a top-level list with the comment lines just above it.
struct NotedValue {
    var note: String
    var value: PythonValue
}

enum PythonLiteral {
    /// The elements of the list assigned to `name` (`NAME = [ ... ]`), each with its comment.
    static func list(named name: String, in source: String) -> [NotedValue] {
        guard let start = source.range(of: "\n\(name) = [") else { return [] }
        var parser = Parser(Array(source[start.upperBound...].unicodeScalars))
        return parser.elements()
    }

    struct Parser {
        var scalars: [Unicode.Scalar]
        var index = 0
        var pendingNote = ""

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        /// Reads elements up to the closing bracket of the list already opened.
        mutating func elements() -> [NotedValue] {
            var result = [NotedValue]()
            while true {
                skipSpaceAndComments()
                guard index < scalars.count else { return result }
                if scalars[index] == "]" || scalars[index] == ")" {
                    index += 1
                    return result
                }
                let note = pendingNote
                pendingNote = ""
                let value = self.value()
                result.append(NotedValue(note: note, value: value))
                skipSpaceAndComments(untilLineEnd: true)
                if index < scalars.count, scalars[index] == "," { index += 1 }
                // A comment on the same line after an element is that element's note.
                skipSpaceAndComments(untilLineEnd: true)
                if !pendingNote.isEmpty {
                    result[result.count - 1].note = pendingNote
                    pendingNote = ""
                }
            }
        }

        mutating func value() -> PythonValue {
            skipSpaceAndComments()
            let first = scalars[index]
            if first == "[" || first == "(" {
                index += 1
                return .list(elements().map(\.value))
            }
            if first == "\"" || first == "'" {
                var text = string()
                while true {
                    let mark = index
                    skipSpaceAndComments()
                    if index < scalars.count, scalars[index] == "+" {
                        index += 1
                        skipSpaceAndComments()
                        text += string()
                    } else {
                        index = mark
                        break
                    }
                }
                return .string(text)
            }
            var digits = ""
            while index < scalars.count, scalars[index].properties.numericType != nil || scalars[index] == "-" {
                digits.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard let number = Int(digits) else { fatalError("unexpected Python literal near \(index)") }
            return .integer(number)
        }

        mutating func string() -> String {
            let quote = scalars[index]
            index += 1
            var text = String.UnicodeScalarView()
            while scalars[index] != quote {
                if scalars[index] == "\\" {
                    index += 1
                    switch scalars[index] {
                    case "x":
                        let hexDigits = String(String.UnicodeScalarView(scalars[(index + 1)...(index + 2)]))
                        text.append(Unicode.Scalar(UInt8(hexDigits, radix: 16)!))
                        index += 3
                        continue
                    case "n": text.append("\n")
                    case "t": text.append("\t")
                    default: text.append(scalars[index])
                    }
                    index += 1
                } else {
                    text.append(scalars[index])
                    index += 1
                }
            }
            index += 1
            return String(text)
        }

        mutating func skipSpaceAndComments(untilLineEnd: Bool = false) {
            while index < scalars.count {
                if untilLineEnd && scalars[index] == "\n" {
                    return
                } else if scalars[index].properties.isWhitespace {
                    index += 1
                } else if scalars[index] == "#" {
                    var comment = String.UnicodeScalarView()
                    index += 1
                    while index < scalars.count, scalars[index] != "\n" {
                        comment.append(scalars[index])
                        index += 1
                    }
                    let line = String(comment).trimmingCharacters(in: .whitespaces)
                    pendingNote = pendingNote.isEmpty ? line : pendingNote + " " + line
                } else {
                    return
                }
            }
        }
    }
}
