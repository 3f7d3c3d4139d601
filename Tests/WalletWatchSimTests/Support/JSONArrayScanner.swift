import Foundation

/// Checks a JSON array as it streams past, holding one element at a time: the framing
/// (`[`, commas, `]`) is checked byte by byte and each element is handed over complete, so a
/// history of hundreds of megabytes can be verified in a few kilobytes of memory.
struct JSONArrayScanner {
    private(set) var elementCount = 0
    private(set) var error: String?
    private(set) var finished = false
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false
    private var expectingElement = true
    private var current: [UInt8] = []
    private let onElement: ([UInt8]) -> String?

    /// `onElement` checks one element's bytes and returns a problem, or nil when it is fine.
    init(onElement: @escaping ([UInt8]) -> String?) {
        self.onElement = onElement
    }

    mutating func feed(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes where error == nil {
            feed(byte)
        }
    }

    private mutating func feed(_ byte: UInt8) {
        let whitespace = byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        if finished {
            if !whitespace { error = "bytes after the closing ]" }
            return
        }
        if !started {
            if whitespace { return }
            guard byte == UInt8(ascii: "[") else { error = "does not start with ["; return }
            started = true
            depth = 1
            return
        }
        if depth == 1 && !inString {
            if whitespace { return }
            switch byte {
            case UInt8(ascii: ","):
                if expectingElement { error = "comma where an element should be" }
                expectingElement = true
                return
            case UInt8(ascii: "]"):
                if expectingElement && elementCount > 0 { error = "trailing comma" }
                finished = true
                depth = 0
                return
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if !expectingElement { error = "missing comma between elements" }
                expectingElement = false
                current.removeAll(keepingCapacity: true)
            default:
                error = "only objects and arrays are expected as elements, found \(Character(Unicode.Scalar(byte)))"
                return
            }
        }
        current.append(byte)
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 1 {
                elementCount += 1
                if let problem = onElement(current) { error = "element \(elementCount): \(problem)" }
            }
        default: break
        }
    }
}
