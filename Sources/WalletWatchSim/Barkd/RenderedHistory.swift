import Hummingbird
import Synchronization

/// A generated history rendered once and kept as bytes, so that later requests are served at
/// memory speed (benchmarks compare walletwatch with curl reading the same body).
final class RenderedHistory: Sendable {
    private let chunks = Mutex<[ByteBuffer]?>(nil)

    /// The kept bytes when there are some; else renders `stream`, keeping the bytes once the
    /// whole body has been written.
    func body(of stream: HistoryStream) -> ResponseBody {
        ResponseBody { writer in
            if let kept = self.chunks.withLock({ $0 }) {
                try await writer.write(contentsOf: kept)
            } else {
                var rendered: [ByteBuffer] = []
                try await stream.write(to: &writer, edit: nil, chunkSize: 1 << 20) { rendered.append($0) }
                self.chunks.withLock { $0 = rendered }
            }
            try await writer.finish(nil)
        }
    }
}
