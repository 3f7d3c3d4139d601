import Hummingbird

/// Turns a fault into what goes on the wire: either a response of its own (statuses,
/// redirects, oversized and pathological bodies) or an edit of the normal response.
enum FaultResponses {
    /// The response for faults that replace the normal answer entirely; nil for the others.
    static func replacement(for kind: FaultKind) -> SimResponse? {
        switch kind {
        case .status(let code, let retryAfter):
            // A 401 reads like barkd's own; other statuses say they are simulated.
            let message = code == 401 ? "invalid auth token" : "simulated \(code) \(reason(code))"
            var response = SimResponse.barkdError(code, message)
            if let retryAfter { response.headers.append(("Retry-After", String(retryAfter))) }
            return response
        case .redirect(let location):
            return SimResponse(status: 302, headers: [("Location", location)], body: .bytes([]))
        case .oversized(let bytes, let announceLength):
            return SimResponse(status: 200, headers: [("Content-Type", "application/json")],
                               body: .custom(oversizedBody(bytes: max(2, bytes), announceLength: announceLength)))
        case .deepNesting(let depth):
            let depth = max(1, depth)
            var body = [UInt8](repeating: UInt8(ascii: "["), count: depth)
            body.append(contentsOf: [UInt8](repeating: UInt8(ascii: "]"), count: depth))
            return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(body))
        case .hugeString(let bytes, let inArray):
            return SimResponse(status: 200, headers: [("Content-Type", "application/json")],
                               body: .custom(hugeStringBody(bytes: max(0, bytes), inArray: inArray)))
        case .recorded(let body):
            return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(body.utf8)))
        case .malformedJSON, .wrongType, .negativeAmount, .missingField, .truncated, .slow:
            return nil
        }
    }

    /// The normal (2xx) response with an editing fault applied.
    static func apply(_ kind: FaultKind, to response: SimResponse) async -> SimResponse {
        var response = response
        switch (kind, response.body) {
        case (.wrongType, .history(let stream, _)), (.negativeAmount, .history(let stream, _)),
             (.missingField, .history(let stream, _)):
            response.body = .history(stream, edit: kind)
        case (.wrongType, .bytes(let bytes)), (.negativeAmount, .bytes(let bytes)), (.missingField, .bytes(let bytes)):
            if var value = try? SimJSON(parsing: bytes), value.apply(kind) {
                response.body = .bytes(value.jsonBytes)
            } else if kind == .missingField {
                response.body = .bytes([])
            }
        case (.malformedJSON, _):
            let (prefix, _) = await leadingBytes(of: response.body, limit: 16 * 1024)
            // Any strict prefix followed by ":,]}" is invalid JSON: inside a string it stays
            // unterminated, outside one ':' and ',' cannot follow what came before.
            response.body = .bytes(Array(prefix.prefix(max(1, prefix.count / 2))) + Array(":,]}".utf8))
        case (.truncated, _):
            let (prefix, complete) = await leadingBytes(of: response.body, limit: 256 * 1024)
            let announced = complete ? prefix.count : prefix.count * 2
            let sent = Array(prefix.prefix(max(1, announced / 2)))
            response.body = .custom(ResponseBody(contentLength: max(2, announced)) { writer in
                try await writer.write(ByteBuffer(bytes: sent))
                // Throwing makes Hummingbird close the connection without finishing the body.
                throw TruncatedBody()
            })
        default:
            break
        }
        return response
    }

    /// Up to `limit` bytes from the start of a body, and whether that is the whole body.
    private static func leadingBytes(of body: SimBody, limit: Int) async -> ([UInt8], Bool) {
        switch body {
        case .bytes(let bytes):
            return (Array(bytes.prefix(limit)), bytes.count <= limit)
        case .history(let stream, _):
            var out = JSONBuffer(capacity: limit + 4096)
            out.raw("[")
            var first = true
            for movement in stream {
                if out.count >= limit { return (out.bytes, false) }
                if !first { out.raw(",") }
                first = false
                movement.writeJSON(to: &out)
            }
            out.raw("]")
            return (out.bytes, true)
        case .custom:
            return ([], true)
        }
    }

    /// `[{"id":1,"padding":"xxx..."},...]` padded with spaces to exactly `bytes` bytes.
    private static func oversizedBody(bytes total: Int, announceLength: Bool) -> ResponseBody {
        ResponseBody(contentLength: announceLength ? total : nil) { writer in
            var out = JSONBuffer(capacity: SimResponse.chunkSize + 2048)
            var written = 1
            out.raw("[")
            var index = 0
            let padding = String(repeating: "x", count: 900)
            while true {
                let element = "{\"id\":\(index),\"amount_sat\":\(1000 + index % 997),\"padding\":\"\(padding)\"}"
                let cost = element.utf8.count + (index > 0 ? 1 : 0)
                if written + cost + 1 > total { break }
                if index > 0 { out.raw(",") }
                out.raw(element)
                written += cost
                index += 1
                if out.count >= SimResponse.chunkSize {
                    try Task.checkCancellation()
                    try await writer.write(ByteBuffer(bytes: out.take()))
                }
            }
            // Whitespace is valid between tokens: it makes the length exact.
            var spaces = total - written - 1
            while spaces > 0 {
                let run = min(spaces, SimResponse.chunkSize)
                out.raw(String(repeating: " ", count: run))
                spaces -= run
                try await writer.write(ByteBuffer(bytes: out.take()))
            }
            out.raw("]")
            try await writer.write(ByteBuffer(bytes: out.take()))
            try await writer.finish(nil)
        }
    }

    /// `{"data":"aaaa..."}` with `bytes` characters in the string, streamed.
    private static func hugeStringBody(bytes total: Int, inArray: Bool) -> ResponseBody {
        ResponseBody { writer in
            try await writer.write(ByteBuffer(bytes: Array((inArray ? "[{\"data\":\"" : "{\"data\":\"").utf8)))
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: SimResponse.chunkSize)
            var remaining = total
            while remaining > 0 {
                try Task.checkCancellation()
                let run = min(remaining, chunk.count)
                try await writer.write(ByteBuffer(bytes: chunk.prefix(run)))
                remaining -= run
            }
            try await writer.write(ByteBuffer(bytes: Array((inArray ? "\"}]" : "\"}").utf8)))
            try await writer.finish(nil)
        }
    }

    private static func reason(_ code: Int) -> String {
        switch code {
        case 401: "Unauthorized"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Error"
        }
    }
}

/// Thrown to cut a response short (the truncated-body fault).
struct TruncatedBody: Error {}
