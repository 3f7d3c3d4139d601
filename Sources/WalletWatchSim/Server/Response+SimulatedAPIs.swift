import Hummingbird

extension Response {
    /// A JSON body.
    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, contentType: String = "application/json") -> Response {
        Response(status: status, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An error body written by ``WireEncoder``; faults never edit it.
    static func jsonError(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        json((try? WireEncoder.encode(value)) ?? [], status: status)
    }

    /// Plain text, as electrs and barkd's `/ping` answer.
    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// barkd's error body: `{"message": ...}`, after the `resources` not found for a 404.
    static func barkdError(_ status: HTTPResponse.Status, _ message: String, resources: [String]? = nil) -> Response {
        jsonError(BarkdErrorBody(resources: resources, message: message), status: status)
    }
}

/// barkd's `NotFoundError` and `BadRequestError` bodies.
private struct BarkdErrorBody: Encodable {
    var resources: [String]?
    var message: String
}
