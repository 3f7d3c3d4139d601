import Hummingbird

/// The responses of the faults that replace an API's answer entirely: error statuses,
/// redirects, recorded answers, and bodies too large or too deep for a careful client.
enum FaultResponses {
    /// A streamed body is cut into chunks of about this size (backpressure works per chunk).
    static let chunkSize = 64 * 1024

    /// The response for a fault that replaces the normal answer; nil for the others.
    static func replacement(for kind: FaultKind) -> Response? {
        switch kind {
        case .status(let code, let retryAfter):
            // A 401 reads like barkd's own; other statuses say they are simulated.
            let message = code == 401 ? "invalid auth token" : "simulated \(code) \(reason(code))"
            var response = Response.barkdError(HTTPResponse.Status(code: code), message)
            if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
            return response
        case .redirect(let location):
            return Response(status: .found, headers: [.location: location])
        case .oversized(let bytes, let announceLength):
            return json(oversizedBody(bytes: max(2, bytes), announceLength: announceLength))
        case .deepNesting(let depth):
            let depth = max(1, depth)
            var body = ByteBuffer(repeating: UInt8(ascii: "["), count: depth)
            body.writeRepeatingByte(UInt8(ascii: "]"), count: depth)
            return json(ResponseBody(byteBuffer: body))
        case .hugeString(let bytes, let inArray):
            return json(hugeStringBody(bytes: max(0, bytes), inArray: inArray))
        case .recorded(let body):
            return json(ResponseBody(byteBuffer: ByteBuffer(string: body)))
        case .malformedJSON, .wrongType, .negativeAmount, .missingField, .truncated, .slow:
            return nil
        }
    }

    private static func json(_ body: ResponseBody) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: body)
    }

    /// `[{"id":1,"amount_sat":1001,"padding":"xxx..."},...]` padded with spaces to exactly
    /// `bytes` bytes.
    private static func oversizedBody(bytes total: Int, announceLength: Bool) -> ResponseBody {
        ResponseBody(contentLength: announceLength ? total : nil) { writer in
            var out = ByteBuffer(string: "[")
            var written = 1
            var index = 0
            let padding = String(repeating: "x", count: 900)
            while true {
                let element = "{\"id\":\(index),\"amount_sat\":\(1000 + index % 997),\"padding\":\"\(padding)\"}"
                let cost = element.utf8.count + (index > 0 ? 1 : 0)
                if written + cost + 1 > total { break }
                if index > 0 { out.writeString(",") }
                out.writeString(element)
                written += cost
                index += 1
                if out.readableBytes >= chunkSize {
                    try Task.checkCancellation()
                    try await writer.write(out)
                    out.clear()
                }
            }
            // Whitespace is valid between tokens: it makes the length exact.
            var spaces = total - written - 1
            while spaces > 0 {
                let run = min(spaces, chunkSize)
                out.writeRepeatingByte(UInt8(ascii: " "), count: run)
                spaces -= run
                try await writer.write(out)
                out.clear()
            }
            out.writeString("]")
            try await writer.write(out)
            try await writer.finish(nil)
        }
    }

    /// `{"data":"aaaa..."}` (or `[{"data":"aaaa..."}]`) with `bytes` characters in the string, streamed.
    private static func hugeStringBody(bytes total: Int, inArray: Bool) -> ResponseBody {
        ResponseBody { writer in
            try await writer.write(ByteBuffer(string: inArray ? "[{\"data\":\"" : "{\"data\":\""))
            let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: chunkSize)
            var remaining = total
            while remaining > 0 {
                try Task.checkCancellation()
                let run = min(remaining, chunkSize)
                try await writer.write(run == chunkSize ? chunk : ByteBuffer(repeating: UInt8(ascii: "a"), count: run))
                remaining -= run
            }
            try await writer.write(ByteBuffer(string: inArray ? "\"}]" : "\"}"))
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
