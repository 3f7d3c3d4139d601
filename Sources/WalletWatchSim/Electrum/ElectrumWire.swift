import NIOCore
import WalletWatchBitcoin

/// The Electrum face's JSON-RPC 2.0 messages, each written as one line.
enum ElectrumWire {
    /// A successful answer.
    static func reply(_ id: JSONValue, _ result: JSONValue) -> JSONValue {
        .object([.init("jsonrpc", .string("2.0")), .init("result", result), .init("id", id)])
    }

    /// An error answer.
    static func reply(_ id: JSONValue, error: ElectrumError) -> JSONValue {
        .object([.init("jsonrpc", .string("2.0")), .init("error", error.json), .init("id", id)])
    }

    /// A notification (`params` as the method's subscription names them).
    static func notification(_ method: String, _ params: [JSONValue]) -> JSONValue {
        .object([.init("jsonrpc", .string("2.0")), .init("method", .string(method)), .init("params", .array(params))])
    }

    /// `{"hex": ..., "height": ...}`, a header as `blockchain.headers.subscribe` sends it.
    static func header(_ height: Int, _ bytes: [UInt8]) -> JSONValue {
        .object([.init("hex", .string(Hex.encode(bytes))), .init("height", .int(Int64(height)))])
    }

    /// `value` as compact JSON, members in order, followed by a newline.
    static func line(_ value: JSONValue) -> ByteBuffer {
        var buffer = ByteBuffer(bytes: json(value))
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    /// `value` as compact JSON, members in order (``WireEncoder``; `JSONEncoder` on Linux
    /// shuffles them). A JSONValue always encodes: its doubles are parsed, finite, JSON.
    static func json(_ value: JSONValue) -> [UInt8] {
        (try? WireEncoder.encode(value)) ?? Array("null".utf8)
    }

    /// `values` as one JSON array line (a batch's answer).
    static func line(batch values: [JSONValue]) -> ByteBuffer { line(.array(values)) }

    /// A line that is not JSON at all (the `garbage` fault).
    static var garbage: ByteBuffer {
        ByteBuffer(bytes: Array("garbage, not JSON: ".utf8) + [0xff, 0xfe, 0x00, 0x7f] + Array("\n".utf8))
    }

    /// A reply line of exactly `bytes` bytes before its newline: a string result padded with
    /// `x` (the `long_line` fault).
    static func longLine(id: JSONValue, bytes: Int) -> ByteBuffer {
        let idText = String(decoding: json(id), as: UTF8.self)
        let head = #"{"jsonrpc":"2.0","result":""#, tail = #"","id":"# + idText + "}"
        var buffer = ByteBuffer(string: head)
        buffer.writeRepeatingByte(UInt8(ascii: "x"), count: max(0, bytes - head.utf8.count - tail.utf8.count))
        buffer.writeString(tail + "\n")
        return buffer
    }
}
