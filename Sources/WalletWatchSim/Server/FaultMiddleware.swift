import Hummingbird

/// Applies the fault a request drew in ``RequestLogMiddleware``: a response of its own, a wait
/// before the route answers, or a broken body. The body edits (wrong type, negative amount,
/// missing field) are made by the route's ``WireEncoder`` while it writes the body.
struct FaultMiddleware: RouterMiddleware {
    let state: SimulatorState

    func handle(
        _ request: Request, context: SimRequestContext, next: (Request, SimRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let fault = context.fault else { return try await next(request, context) }
        if let replacement = FaultResponses.replacement(for: fault) { return replacement }
        if case .slow(let seconds) = fault {
            await state.pause(for: .milliseconds(Int64(seconds * 1000)))
            try Task.checkCancellation()
        }
        var response = try await next(request, context)
        guard (200..<300).contains(response.status.code) else { return response }
        switch fault {
        case .malformedJSON:
            let prefix = await BodyPrefix.read(response.body, limit: 16 * 1024)
            // Any strict prefix followed by ":,]}" is invalid JSON: inside a string it stays
            // unterminated, outside one ':' and ',' cannot follow what came before.
            let broken = Array(prefix.bytes.prefix(max(1, prefix.bytes.count / 2))) + Array(":,]}".utf8)
            response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: broken))
        case .truncated:
            let prefix = await BodyPrefix.read(response.body, limit: 256 * 1024)
            let announced = prefix.isComplete ? prefix.bytes.count : prefix.bytes.count * 2
            let sent = ByteBuffer(bytes: prefix.bytes.prefix(max(1, announced / 2)))
            response.body = ResponseBody(contentLength: max(2, announced)) { writer in
                try await writer.write(sent)
                // Throwing makes Hummingbird close the connection without finishing the body.
                throw TruncatedBody()
            }
        default:
            break
        }
        return response
    }
}

/// Thrown to cut a response short (the truncated-body fault).
struct TruncatedBody: Error {}
