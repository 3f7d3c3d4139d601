import Hummingbird

extension HistoryStream {
    /// The history as a JSON array, generated while it is sent in chunks of about 64 KiB
    /// (backpressure works per chunk), so a million movements never sit in memory; or the
    /// prerendered bytes. `edit` is a body-editing fault, made on the first movement it applies to.
    func responseBody(edit: FaultKind?) -> ResponseBody {
        let edit = edit.flatMap { $0.isBodyEdit ? $0 : nil }
        if edit == nil, let rendered { return rendered.body(of: self) }
        return ResponseBody { writer in
            try await write(to: &writer, edit: edit, chunkSize: 64 * 1024) { _ in }
            try await writer.finish(nil)
        }
    }

    /// Writes `[movement,...]` chunk by chunk, handing each chunk to `keep` as well.
    func write(
        to writer: inout any ResponseBodyWriter, edit: FaultKind?, chunkSize: Int, keep: (ByteBuffer) -> Void
    ) async throws {
        let encoder = WireEncoder(edit: edit, capacity: chunkSize + 4096)
        encoder.append(raw: "[")
        var first = true
        for movement in self {
            if !first { encoder.append(raw: ",") }
            first = false
            try encoder.encode(movement)
            if encoder.bytes.count >= chunkSize {
                try Task.checkCancellation()
                let chunk = ByteBuffer(bytes: encoder.take())
                keep(chunk)
                try await writer.write(chunk)
            }
        }
        encoder.append(raw: "]")
        let last = ByteBuffer(bytes: encoder.take())
        keep(last)
        try await writer.write(last)
    }
}
