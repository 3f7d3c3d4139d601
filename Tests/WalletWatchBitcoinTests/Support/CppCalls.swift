import Foundation

/// Just enough of C++ to read the arguments of the `Check(...)`, `CheckUnparsable(...)` and
/// `CheckMultipath(...)` statements of Bitcoin Core's descriptor_tests.cpp: string literals
/// (adjacent ones joined), brace lists, and anything else kept as raw text (flags, `std::nullopt`).
indirect enum CppValue {
    case string(String)
    case list([CppValue])
    case other(String)

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var list: [CppValue]? {
        if case .list(let value) = self { value } else { nil }
    }

    var text: String {
        switch self {
        case .string(let value): value
        case .other(let value): value
        case .list(let values): "{" + values.map(\.text).joined(separator: ",") + "}"
        }
    }

    /// Every string literal inside, nested lists flattened.
    var strings: [String] {
        switch self {
        case .string(let value): [value]
        case .other: []
        case .list(let values): values.flatMap(\.strings)
        }
    }
}

enum CppCalls {
    /// The argument lists of every statement `name(...)` that starts a line (after indentation),
    /// which leaves out the helpers' definitions (`void Check(...)`) and calls inside them.
    static func calls(named name: String, in source: String) -> [[CppValue]] {
        var result = [[CppValue]]()
        let scalars = Array(source.unicodeScalars)
        let opening = Array((name + "(").unicodeScalars)
        var index = 0
        var lineStart = true
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                lineStart = true
                index += 1
                continue
            }
            if lineStart && (scalar == " " || scalar == "\t") {
                index += 1
                continue
            }
            if lineStart, index + opening.count <= scalars.count, Array(scalars[index..<(index + opening.count)]) == opening {
                var parser = Parser(scalars: scalars, index: index + opening.count)
                result.append(parser.arguments(closing: ")"))
                index = parser.index
            }
            lineStart = false
            index += 1
        }
        return result
    }

    struct Parser {
        var scalars: [Unicode.Scalar]
        var index: Int

        mutating func arguments(closing: Unicode.Scalar) -> [CppValue] {
            var values = [CppValue]()
            while true {
                skipSpaceAndComments()
                if scalars[index] == closing {
                    index += 1
                    return values
                }
                values.append(value())
                skipSpaceAndComments()
                if scalars[index] == "," { index += 1 }
            }
        }

        mutating func value() -> CppValue {
            skipSpaceAndComments()
            if scalars[index] == "\"" {
                var text = ""
                while index < scalars.count, scalars[index] == "\"" {
                    text += stringLiteral()
                    skipSpaceAndComments()
                }
                return .string(text)
            }
            if scalars[index] == "{" {
                index += 1
                return .list(arguments(closing: "}"))
            }
            var text = String.UnicodeScalarView()
            var depth = 0
            while index < scalars.count {
                let scalar = scalars[index]
                if depth == 0 && (scalar == "," || scalar == ")" || scalar == "}") { break }
                if scalar == "(" || scalar == "{" { depth += 1 }
                if scalar == ")" || scalar == "}" { depth -= 1 }
                if scalar == "/" && index + 1 < scalars.count && scalars[index + 1] == "*" {
                    skipSpaceAndComments()
                    continue
                }
                text.append(scalar)
                index += 1
            }
            return .other(String(text).trimmingCharacters(in: .whitespacesAndNewlines))
        }

        mutating func stringLiteral() -> String {
            index += 1
            var text = String.UnicodeScalarView()
            while scalars[index] != "\"" {
                if scalars[index] == "\\" { index += 1 }
                text.append(scalars[index])
                index += 1
            }
            index += 1
            return String(text)
        }

        mutating func skipSpaceAndComments() {
            while index < scalars.count {
                if scalars[index].properties.isWhitespace {
                    index += 1
                } else if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                    while index < scalars.count, scalars[index] != "\n" { index += 1 }
                } else if scalars[index] == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                    index += 2
                    while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { index += 1 }
                    index += 2
                } else {
                    return
                }
            }
        }
    }
}
