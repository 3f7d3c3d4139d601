import NIOCore

/// Cuts the bytes a connection reads into newline-terminated lines, remembering which read
/// completed each line (its `write` number: lines a client sent in one write usually arrive in
/// one read). A line longer than `limit` is an error: the connection closes.
struct ElectrumLineSplitter {
    /// ElectrumX's default `MAX_RECV`: 1,000,000 bytes.
    static let limit = 1_000_000

    private var pending: [UInt8] = []
    private(set) var reads = 0

    struct TooLong: Error {}

    /// The lines `buffer` completes, without their newlines (a `\r` before one is dropped too).
    mutating func split(_ buffer: ByteBuffer) throws -> [[UInt8]] {
        reads += 1
        pending.append(contentsOf: buffer.readableBytesView)
        var lines: [[UInt8]] = []
        var start = 0
        while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(pending[start..<end])
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if !line.isEmpty { lines.append(line) }
            start = end + 1
        }
        pending.removeFirst(start)
        guard pending.count <= Self.limit else { throw TooLong() }
        return lines
    }
}
