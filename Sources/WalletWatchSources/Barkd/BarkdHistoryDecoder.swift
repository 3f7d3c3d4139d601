import WalletWatchNet

/// Decodes barkd's `GET /api/v1/history` body as it arrives, handing over each movement as
/// soon as it is complete. `BarkdClient.history` streams through it; benchmarks feed it a
/// saved body.
public final class BarkdHistoryDecoder: HTTPBodyConsumer, @unchecked Sendable {
    private let consumer: ArrayStreamConsumer<MovementData>

    public init(onMovement: @escaping (MovementData) throws -> Void) {
        consumer = ArrayStreamConsumer(decode: BarkdDecoding.movement, onElement: onMovement)
    }

    /// Feeds the next bytes of the body.
    public func consume(_ chunk: UnsafeRawBufferPointer) throws {
        try consumer.consume(chunk)
    }

    /// Throws when the body ended before the array was closed.
    public func finish() throws {
        try consumer.finish()
    }
}
