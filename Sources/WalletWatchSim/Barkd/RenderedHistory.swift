import Hummingbird
import Synchronization

/// A generated history rendered once and kept as bytes, so that later requests are served at
/// memory speed (benchmarks compare walletwatch with curl reading the same body).
final class RenderedHistory: Sendable {
    private let chunks = Mutex<[ByteBuffer]?>(nil)
    private static let chunkSize = 1 << 20

    /// Writes the history: the kept bytes when there are some, else renders it (keeping the bytes).
    func write(_ stream: HistoryStream, to writer: inout any ResponseBodyWriter) async throws {
        if let kept = chunks.withLock({ $0 }) {
            for chunk in kept { try await writer.write(chunk) }
            try await writer.finish(nil)
            return
        }
        var rendered: [ByteBuffer] = []
        var out = JSONBuffer(capacity: Self.chunkSize + 4096)
        out.raw("[")
        var first = true
        for movement in stream {
            if !first { out.raw(",") }
            first = false
            movement.writeJSON(to: &out)
            if out.count >= Self.chunkSize {
                let chunk = ByteBuffer(bytes: out.take())
                rendered.append(chunk)
                try await writer.write(chunk)
            }
        }
        out.raw("]")
        let last = ByteBuffer(bytes: out.take())
        rendered.append(last)
        try await writer.write(last)
        try await writer.finish(nil)
        chunks.withLock { $0 = rendered }
    }
}
