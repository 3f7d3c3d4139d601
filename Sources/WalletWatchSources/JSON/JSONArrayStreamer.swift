/// Cuts a streamed top-level JSON array into its elements as the bytes arrive, so that a
/// history of a million entries is decoded one element at a time: memory follows the largest
/// element, not the body.
///
/// It only finds element boundaries (tracking strings, escapes and nesting); each element's
/// bytes are then read strictly by a schema decoder.
public struct JSONArrayStreamer: Sendable {
    /// An element larger than this is refused (a hostile source cannot make walletwatch buffer
    /// a 100 MB string).
    public let maximumElementBytes: Int

    private enum State { case beforeArray, beforeElement, inElement, afterElement, finished }

    private var state = State.beforeArray
    private var element: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaping = false
    private(set) var elementCount = 0

    public init(maximumElementBytes: Int = 1 << 20) {
        self.maximumElementBytes = maximumElementBytes
        element.reserveCapacity(4096)
    }

    /// Feeds the next chunk; `onElement` receives each complete element's bytes (valid only
    /// during the call) and its position.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, onElement: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        var index = 0
        let count = chunk.count
        while index < count {
            let byte = chunk[index]
            switch state {
            case .beforeArray:
                if isWhitespace(byte) { index += 1; continue }
                guard byte == UInt8(ascii: "[") else { throw JSONReadError(path: "", problem: "expected an array") }
                state = .beforeElement
                index += 1
            case .beforeElement:
                if isWhitespace(byte) { index += 1; continue }
                if byte == UInt8(ascii: "]") && elementCount == 0 {
                    state = .finished
                    index += 1
                    continue
                }
                guard byte != UInt8(ascii: "]") && byte != UInt8(ascii: ",") else {
                    throw JSONReadError(path: "[\(elementCount)]", problem: "expected a value")
                }
                state = .inElement
                depth = 0
                inString = false
                escaping = false
            case .inElement:
                // Find the end of the element; its bytes are copied only when it spans chunks.
                let start = index
                var end: Int? = nil
                while index < count {
                    if inString {
                        if escaping {
                            escaping = false
                            index += 1
                            continue
                        }
                        // The string's plain bytes in one go, to its quote or next escape.
                        index = JSONStringScan.stop(in: chunk.baseAddress!, from: index, to: count, controls: false)
                        guard index < count else { break }
                        if chunk[index] == UInt8(ascii: "\\") { escaping = true } else { inString = false }
                        index += 1
                        continue
                    }
                    let current = chunk[index]
                    switch current {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                        guard depth <= JSONReader.maximumDepth else {
                            throw JSONReadError(path: "[\(elementCount)]", problem: "nesting deeper than \(JSONReader.maximumDepth) levels")
                        }
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { end = index } else { depth -= 1 }
                    case UInt8(ascii: ","):
                        if depth == 0 { end = index }
                    default: break
                    }
                    if end != nil { break }
                    index += 1
                }
                let taken = (end ?? count) - start
                guard element.count + taken <= maximumElementBytes else {
                    throw JSONReadError(path: "[\(elementCount)]", problem: "an element is larger than \(maximumElementBytes) bytes")
                }
                let bytes = UnsafeRawBufferPointer(rebasing: chunk[start..<(start + taken)])
                if end != nil, element.isEmpty {
                    // The whole element is in this chunk: handed over where it lies, not copied.
                    try onElement(bytes, elementCount)
                } else {
                    element.append(contentsOf: bytes)
                    guard end != nil else { continue }
                    try element.withUnsafeBytes { try onElement($0, elementCount) }
                    element.removeAll(keepingCapacity: true)
                }
                elementCount += 1
                state = .afterElement
            case .afterElement:
                if isWhitespace(byte) { index += 1; continue }
                if byte == UInt8(ascii: ",") { state = .beforeElement; index += 1; continue }
                if byte == UInt8(ascii: "]") { state = .finished; index += 1; continue }
                throw JSONReadError(path: "[\(elementCount)]", problem: "expected ',' or ']' between elements")
            case .finished:
                guard isWhitespace(byte) else {
                    throw JSONReadError(path: "", problem: "unexpected data after the end of the array")
                }
                index += 1
            }
        }
    }

    /// Call once the body has ended: throws when the array was not complete.
    public func finish() throws {
        guard state == .finished else {
            throw JSONReadError(path: elementCount > 0 ? "[\(elementCount)]" : "", problem: "the document ends before the array is closed (truncated)")
        }
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
