import Hummingbird

/// The first bytes of a response body, read by writing the body into this writer until it
/// has enough.
final class BodyPrefix: ResponseBodyWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether ``bytes`` is the whole body.
    private(set) var isComplete = true
    private let limit: Int

    private struct Enough: Error {}

    private init(limit: Int) {
        self.limit = limit
    }

    /// Up to `limit` bytes from the start of `body` (a streamed body stops being generated there).
    static func read(_ body: ResponseBody, limit: Int) async -> BodyPrefix {
        let prefix = BodyPrefix(limit: limit)
        try? await body.write(prefix)
        return prefix
    }

    func write(_ buffer: ByteBuffer) async throws {
        bytes.append(contentsOf: buffer.readableBytesView.prefix(limit + 1 - bytes.count))
        if bytes.count > limit {
            bytes.removeLast(bytes.count - limit)
            isComplete = false
            throw Enough()
        }
    }

    func write(contentsOf buffers: some Sequence<ByteBuffer>) async throws {
        for buffer in buffers { try await write(buffer) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
