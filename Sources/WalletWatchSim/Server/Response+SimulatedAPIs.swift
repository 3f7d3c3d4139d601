import Hummingbird

extension Response {
    /// Plain text, as electrs and barkd's `/ping` answer.
    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// barkd's error body: `{"message": ...}`, after the `resources` not found for a 404.
    static func barkdError(_ status: HTTPResponse.Status, _ message: String, resources: [String]? = nil) -> Response {
        let body = BarkdErrorBody(resources: resources, message: message)
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: (try? WireEncoder.encode(body)) ?? [])))
    }
}

/// barkd's `NotFoundError` and `BadRequestError` bodies.
private struct BarkdErrorBody: Encodable {
    var resources: [String]?
    var message: String
}
