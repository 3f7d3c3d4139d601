import WalletWatchCore

/// Decodes barkd's `GET /api/v1/history` body chunk by chunk, however it was cut: each movement
/// is decoded (strictly, by its schema) as soon as its last byte has been fed, so memory
/// follows the largest movement (at most 1 MiB), not the body. The ingest feeds it the body
/// it spooled; benchmarks feed it a saved one.
public struct BarkdHistoryDecoder {
    private var streamer = JSONArrayStreamer()
    /// Turns errors into ``SourceError``s naming the source and request; nil: they stay
    /// ``JSONReadError``s.
    private let requester: SourceRequester?

    /// A decoder whose errors are ``JSONReadError``s with the movement's position in their path.
    public init() { requester = nil }

    init(requester: SourceRequester) { self.requester = requester }

    static let path = "/api/v1/history"

    /// The movements that `chunk` completes, in the body's order.
    public mutating func decode(_ chunk: UnsafeRawBufferPointer) throws -> [MovementData] {
        var movements: [MovementData] = []
        try reported {
            try streamer.feed(chunk) { bytes, position in
                do {
                    movements.append(try JSONReader.read(bytes, BarkdDecoding.movement))
                } catch let error as JSONReadError {
                    let path = error.path.isEmpty ? "" : (error.path.hasPrefix("[") ? "" : ".") + error.path
                    throw JSONReadError(path: "[\(position)]" + path, problem: error.problem)
                }
            }
        }
        return movements
    }

    /// Throws when the body ended before its array was closed.
    public func finish() throws {
        try reported { try streamer.finish() }
    }

    private func reported<T>(_ body: () throws -> T) throws -> T {
        guard let requester else { return try body() }
        return try requester.decoded(Self.path, body)
    }
}
