import Hummingbird

/// What a route answers, before a fault edits it and before it becomes a Hummingbird
/// `Response`. Bodies stay lazy where they may be huge.
struct SimResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: SimBody

    /// A streamed body is cut into chunks of about this size (backpressure works per chunk).
    static let chunkSize = 64 * 1024

    static func json(_ value: some JSONWritable, status: Int = 200) -> SimResponse {
        SimResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(value.jsonBytes))
    }

    static func text(_ text: String, status: Int = 200) -> SimResponse {
        SimResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(Array(text.utf8)))
    }

    /// barkd's error bodies: `{"message": ...}` (400, 401, 500) or, for 404, with `resources`.
    static func barkdError(_ status: Int, _ message: String, resources: [String]? = nil) -> SimResponse {
        var out = JSONBuffer()
        out.beginObject()
        if let resources { out.field("resources", strings: resources) }
        out.field("message", message)
        out.endObject()
        return SimResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(out.bytes))
    }

    /// The Hummingbird response: bytes with Content-Length, streams chunked.
    var httpResponse: Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let field = HTTPFields.Element.Name(name) { fields.append(HTTPFields.Element(name: field, value: value)) }
        }
        let status = HTTPResponse.Status(code: status)
        switch body {
        case .bytes(let bytes):
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case .history(let stream, let edit):
            if edit == nil, let rendered = stream.rendered {
                return Response(status: status, headers: fields, body: ResponseBody { writer in
                    try await rendered.write(stream, to: &writer)
                })
            }
            return Response(status: status, headers: fields, body: ResponseBody { writer in
                try await SimResponse.writeHistory(stream, edit: edit, to: &writer)
            })
        case .custom(let body):
            return Response(status: status, headers: fields, body: body)
        }
    }

    /// Streams `[movement,movement,...]`, one chunk at a time; `edit` (a body-editing fault)
    /// applies to the first movement that has something to edit.
    static func writeHistory(
        _ stream: HistoryStream, edit: FaultKind?, to writer: inout any ResponseBodyWriter
    ) async throws {
        var out = JSONBuffer(capacity: chunkSize + 4096)
        var pendingEdit = edit
        out.raw("[")
        var first = true
        for movement in stream {
            if !first { out.raw(",") }
            first = false
            if let kind = pendingEdit, var value = try? SimJSON(parsing: movement.jsonBytes), value.apply(kind) {
                out.rawValue(value.jsonBytes)
                pendingEdit = nil
            } else {
                movement.writeJSON(to: &out)
            }
            if out.count >= chunkSize {
                try Task.checkCancellation()
                try await writer.write(ByteBuffer(bytes: out.take()))
            }
        }
        out.raw("]")
        try await writer.write(ByteBuffer(bytes: out.take()))
        try await writer.finish(nil)
    }
}

/// A response body: complete bytes, a lazily generated history, or any streamed body.
enum SimBody: Sendable {
    case bytes([UInt8])
    /// A history array generated while it is sent, with an optional body-editing fault.
    case history(HistoryStream, edit: FaultKind?)
    case custom(ResponseBody)
}
