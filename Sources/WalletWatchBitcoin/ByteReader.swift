/// Reads Bitcoin's wire encodings (little-endian integers, CompactSize counts, byte strings)
/// from a buffer, refusing to read past its end. Every count is checked against the bytes
/// left before anything is allocated for it, so a hostile count cannot ask for gigabytes.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - offset }

    /// The next byte, not consumed; nil at the end.
    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func bytes(_ count: Int, _ what: @autoclosure () -> String) throws(ByteReaderError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw ByteReaderError(what: what(), offset: offset) }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func uint8(_ what: @autoclosure () -> String) throws(ByteReaderError) -> UInt8 {
        try bytes(1, what())[0]
    }

    mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type, _ what: @autoclosure () -> String) throws(ByteReaderError) -> T {
        let raw = try bytes(MemoryLayout<T>.size, what())
        return raw.reversed().reduce(T(0)) { $0 << 8 | T($1) }
    }

    /// A CompactSize count that the remaining bytes could hold at `minimumSize` bytes an item.
    mutating func count(_ what: @autoclosure () -> String, minimumSize: Int) throws(ByteReaderError) -> Int {
        let start = offset
        let marker = try uint8(what())
        let value: UInt64 = switch marker {
        case 0xfd: UInt64(try littleEndian(UInt16.self, what()))
        case 0xfe: UInt64(try littleEndian(UInt32.self, what()))
        case 0xff: try littleEndian(UInt64.self, what())
        default: UInt64(marker)
        }
        guard value <= UInt64(remaining / max(1, minimumSize)) else {
            throw ByteReaderError(what: what(), offset: start, detail: "is \(value), more than the \(remaining) bytes left can hold")
        }
        return Int(value)
    }

    /// A CompactSize length followed by that many bytes.
    mutating func lengthPrefixed(_ what: @autoclosure () -> String) throws(ByteReaderError) -> [UInt8] {
        let length = try count(what(), minimumSize: 1)
        return try bytes(length, what())
    }
}

/// Where a serialization ended early or held an impossible count.
struct ByteReaderError: Error {
    let what: String
    let offset: Int
    var detail = "ends early"
}
