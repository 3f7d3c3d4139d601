/// Writes JSON text byte by byte, keys in the order they are written (barkd's serde order),
/// which `JSONEncoder` does not promise. Also the fast path for streaming large arrays.
struct JSONBuffer {
    private(set) var bytes: [UInt8]
    /// One entry per open object or array: how many members it has so far.
    private var counts: [Int] = []

    init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    /// Hands the bytes written so far to the caller and starts again with an empty buffer.
    mutating func take() -> [UInt8] {
        let taken = bytes
        bytes.removeAll(keepingCapacity: true)
        return taken
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        counts.append(0)
    }

    mutating func endObject() {
        counts.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        counts.append(0)
    }

    mutating func endArray() {
        counts.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `"name":` (with the comma before it when needed); the value follows.
    mutating func key(_ name: String) {
        if let last = counts.last {
            if last > 0 { bytes.append(UInt8(ascii: ",")) }
            counts[counts.count - 1] = last + 1
        }
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        pendingKey = true
    }

    mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
    }

    mutating func int<T: BinaryInteger>(_ value: T) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits written backwards then reversed in place: no String per number.
        var magnitude = UInt64(value.magnitude)
        let start = bytes.count
        repeat {
            bytes.append(48 + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// A number already formatted as JSON (decimals keep the digits they were given).
    mutating func number(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    mutating func time(_ value: SimTime) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        value.append(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends text that is already valid JSON (a whole value).
    mutating func rawValue(_ raw: [UInt8]) {
        separate()
        bytes.append(contentsOf: raw)
    }

    /// Appends bytes outside the structure tracking (framing of streamed arrays, fault bodies).
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    // MARK: fields

    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int64) { key(name); int(value) }
    mutating func field(_ name: String, _ value: Int) { key(name); int(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    mutating func field(_ name: String, _ value: SimTime) { key(name); time(value) }

    /// `"name": value`, or `"name": null` when absent (serde's default for `Option`).
    mutating func field(_ name: String, nullable value: Int64?) {
        key(name)
        if let value { int(value) } else { null() }
    }

    mutating func field(_ name: String, nullable value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    /// `"name": value`, left out when absent (serde's `skip_serializing_if = "Option::is_none"`).
    mutating func field(_ name: String, omittable value: Int64?) {
        if let value { field(name, value) }
    }

    mutating func field(_ name: String, omittable value: SimTime?) {
        if let value { field(name, value) }
    }

    mutating func field(_ name: String, strings: [String]) {
        key(name)
        beginArray()
        for value in strings { string(value) }
        endArray()
    }

    mutating func field(_ name: String, _ value: some JSONWritable) {
        key(name)
        value.writeJSON(to: &self)
    }

    mutating func field(_ name: String, array values: [some JSONWritable]) {
        key(name)
        beginArray()
        for value in values { value.writeJSON(to: &self) }
        endArray()
    }

    // MARK: internals

    private var pendingKey = false

    /// Writes the comma between array elements; a value right after its key needs none.
    private mutating func separate() {
        if pendingKey {
            pendingKey = false
            return
        }
        if let last = counts.last {
            if last > 0 { bytes.append(UInt8(ascii: ",")) }
            counts[counts.count - 1] = last + 1
        }
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Nearly every string (ids, addresses, hex) needs no escaping: copy it whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 0x0A: bytes.append(contentsOf: [92, 110])
            case 0x0D: bytes.append(contentsOf: [92, 114])
            case 0x09: bytes.append(contentsOf: [92, 116])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A value that writes its own wire JSON, fields in barkd's or Esplora's order.
protocol JSONWritable {
    func writeJSON(to out: inout JSONBuffer)
}

extension JSONWritable {
    /// The wire JSON as bytes.
    var jsonBytes: [UInt8] {
        var out = JSONBuffer(capacity: 512)
        writeJSON(to: &out)
        return out.bytes
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    func writeJSON(to out: inout JSONBuffer) {
        out.beginArray()
        for element in self { element.writeJSON(to: &out) }
        out.endArray()
    }
}
