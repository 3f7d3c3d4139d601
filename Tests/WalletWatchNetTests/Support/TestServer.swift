import Hummingbird
import Synchronization
import TestSupport

/// What the test server's routes saw and did, for tests to assert on.
final class ServerLog: Sendable {
    private struct State {
        var hits: [String: Int] = [:]
        var bytesSent: [String: Int] = [:]
        var finished: Set<String> = []
        var port = 0
    }

    private let state = Mutex(State())

    /// Counts a request to `key` and returns how many there have been, this one included.
    @discardableResult
    func hit(_ key: String) -> Int {
        state.withLock { state in
            state.hits[key, default: 0] += 1
            return state.hits[key]!
        }
    }

    func hits(_ key: String) -> Int { state.withLock { $0.hits[key, default: 0] } }

    func sent(_ count: Int, for key: String) { state.withLock { $0.bytesSent[key, default: 0] += count } }
    func bytesSent(_ key: String) -> Int { state.withLock { $0.bytesSent[key, default: 0] } }

    func finish(_ key: String) { _ = state.withLock { $0.finished.insert(key) } }
    func isFinished(_ key: String) -> Bool { state.withLock { $0.finished.contains(key) } }

    var port: Int {
        get { state.withLock { $0.port } }
        set { state.withLock { $0.port = newValue } }
    }
}

enum TestServerError: Error {
    case cutShort
}

/// A Hummingbird application on 127.0.0.1 (a free port) with the routes below.
struct TestServer: Sendable {
    let port: Int
    let log: ServerLog

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}

/// Starts a test server, runs `body` with it, and stops the server (gracefully: see
/// `withLoopbackServer`).
func withTestServer<T: Sendable>(_ body: @Sendable (TestServer) async throws -> T) async throws -> T {
    let log = ServerLog()
    let router = Router()
    addRoutes(to: router, log: log)
    return try await withLoopbackServer(router, label: "walletwatch-test-server") { port in
        log.port = port
        return try await body(TestServer(port: port, log: log))
    }
}

/// The byte at `offset` of a /stream body: a pattern that shows reordering and gaps.
func streamByte(at offset: Int) -> UInt8 { UInt8(offset % 251) }

private func addRoutes(to router: Router<BasicRequestContext>, log: ServerLog) {
    // Everything the client sent, one "name: value" line each, then the body.
    let echo: @Sendable (Request, BasicRequestContext) async throws -> String = { request, _ in
        var request = request
        log.hit("echo")
        var lines = ["method: \(request.method.rawValue)"]
        for field in request.headers {
            lines.append("\(field.name.canonicalName): \(field.value)")
        }
        let body = try await request.collectBody(upTo: 1 << 20)
        lines.append("host: \(request.head.authority ?? "")")
        lines.append("body: \(String(buffer: body))")
        return lines.joined(separator: "\n")
    }
    router.get("/echo", use: echo)
    router.post("/echo", use: echo)
    router.put("/echo", use: echo)
    router.delete("/echo", use: echo)

    // /seq?id=K&codes=503,503,200[&retryAfter=1][&bodyBytes=N]: the n-th request to K gets the
    // n-th status (the last one repeats).
    router.get("/seq") { request, _ -> Response in
        let parameters = request.uri.queryParameters
        let key = String(parameters["id"] ?? "seq")
        let codes = (parameters["codes"] ?? "200").split(separator: ",").compactMap { Int($0) }
        let attempt = log.hit(key)
        let code = codes[min(attempt, codes.count) - 1]
        var response = Response(status: .init(code: code))
        if code != 200, let retryAfter = parameters["retryAfter"] {
            response.headers[.retryAfter] = String(retryAfter)
        }
        let text = parameters["bodyBytes"].flatMap { Int($0) }.map { String(repeating: "e", count: $0) } ?? "attempt \(attempt)"
        response.body = ResponseBody(byteBuffer: ByteBuffer(string: text))
        return response
    }

    // /slow?ms=N: answers after N ms.
    router.get("/slow") { request, _ -> String in
        log.hit("slow")
        let milliseconds = Int(request.uri.queryParameters["ms"] ?? "1000") ?? 1000
        try await Task.sleep(for: .milliseconds(milliseconds))
        return "done"
    }

    // Answers nothing for a minute (or until the server stops).
    router.get("/hang") { _, _ -> String in
        log.hit("hang")
        try await Task.sleep(for: .seconds(60))
        return "too late"
    }

    router.get("/redirect-file") { _, _ in redirect(to: "file:///etc/passwd") }
    router.get("/redirect-ftp") { _, _ in redirect(to: "ftp://127.0.0.1/secret.txt") }
    router.get("/redirect-echo") { _, _ in redirect(to: "/echo") }
    router.get("/redirect-other-host") { _, _ in redirect(to: "http://localhost:\(log.port)/echo") }
    // /redirect-to?location=URL[&status=N][&ms=N]: a redirect (302 by default) to anywhere,
    // for GET and POST, after N ms.
    let redirectTo: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
        log.hit("redirect-to")
        let parameters = request.uri.queryParameters
        if let milliseconds = parameters["ms"].flatMap({ Int($0) }) {
            try await Task.sleep(for: .milliseconds(milliseconds))
        }
        let status = Int(parameters["status"] ?? "302") ?? 302
        return Response(status: .init(code: status), headers: [.location: String(parameters["location"] ?? "/echo")])
    }
    router.get("/redirect-to", use: redirectTo)
    router.post("/redirect-to", use: redirectTo)
    router.get("/loop") { _, _ in
        log.hit("loop")
        return redirect(to: "/loop")
    }

    // /big?id=K&bytes=N[&announce=1]: N bytes in 64 KiB chunks, with or without Content-Length;
    // counts what was handed to the connection and notes when it stopped. A pause after each
    // chunk keeps the count close to what really left: NIO would otherwise queue the whole body
    // (slices of one buffer) faster than any socket sends it.
    router.get("/big") { request, _ -> Response in
        let parameters = request.uri.queryParameters
        let key = String(parameters["id"] ?? "big")
        let total = Int(parameters["bytes"] ?? "0") ?? 0
        let announce = parameters["announce"] == "1"
        log.hit(key)
        let body = ResponseBody(contentLength: announce ? total : nil) { writer in
            defer { log.finish(key) }
            let chunk = ByteBuffer(repeating: UInt8(ascii: "b"), count: 64 << 10)
            var sent = 0
            while sent < total {
                let piece = min(chunk.readableBytes, total - sent)
                try await writer.write(chunk.getSlice(at: 0, length: piece)!)
                sent += piece
                log.sent(piece, for: key)
                try await Task.sleep(for: .milliseconds(1))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, body: body)
    }

    // /truncated?id=K: announces 1000 bytes, sends 500, then drops the connection.
    router.get("/truncated") { request, _ -> Response in
        log.hit(String(request.uri.queryParameters["id"] ?? "truncated"))
        let body = ResponseBody(contentLength: 1000) { writer in
            try await writer.write(ByteBuffer(repeating: UInt8(ascii: "t"), count: 500))
            throw TestServerError.cutShort
        }
        return Response(status: .ok, body: body)
    }

    // /stream?chunks=N&size=S[&delayMs=D]: N chunks of S pattern bytes (see streamByte).
    router.get("/stream") { request, _ -> Response in
        let parameters = request.uri.queryParameters
        let chunks = Int(parameters["chunks"] ?? "1") ?? 1
        let size = Int(parameters["size"] ?? "1024") ?? 1024
        let delay = Int(parameters["delayMs"] ?? "0") ?? 0
        log.hit("stream")
        let body = ResponseBody(contentLength: chunks * size) { writer in
            for index in 0..<chunks {
                let bytes = (0..<size).map { streamByte(at: index * size + $0) }
                try await writer.write(ByteBuffer(bytes: bytes))
                if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, body: body)
    }
}

private func redirect(to location: String) -> Response {
    Response(status: .found, headers: [.location: location])
}
