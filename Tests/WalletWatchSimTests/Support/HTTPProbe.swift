import Foundation
#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
import Darwin
private let streamSocket = SOCK_STREAM
#endif

/// `send(2)`, named apart from ``HTTPProbe/send(_:_:headers:body:keepBody:timeoutSeconds:onBody:)``.
private func sendBytes(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
    send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
    send(fd, bytes.baseAddress, bytes.count, 0)
    #endif
}

/// What came back from one HTTP exchange, framing included, so that tests can see exactly
/// what a client would: a short body, a missing Content-Length, a closed connection.
struct ProbeResult: Sendable {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: [UInt8]
    /// Bytes of body received (also when they were not kept).
    var bodyBytes: Int
    /// The body ended the way its framing said it would (Content-Length reached, final chunk seen,
    /// or the server closed after an unframed body).
    var complete: Bool
    /// Whether the body was sent chunked.
    var chunked: Bool

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed with Foundation (nil when it is not JSON).
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    var object: [String: Any]? { json as? [String: Any] }
    var array: [[String: Any]]? { json as? [[String: Any]] }
}

/// A deliberately plain HTTP/1.1 client over a blocking socket, run on its own thread: it
/// reports truncated bodies and redirects as they are, and can stream a body of any size
/// through a callback without keeping it.
enum HTTPProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends one request (`Connection: close`) and reads the whole response.
    static func send(
        _ method: String = "GET", _ url: String, headers: [String: String] = [:], body: [UInt8]? = nil,
        keepBody: Bool = true, timeoutSeconds: Int = 60,
        onBody: (@Sendable (ArraySlice<UInt8>) -> Void)? = nil
    ) async throws -> ProbeResult {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(returning: try exchange(
                        method, url, headers: headers, body: body, keepBody: keepBody, timeoutSeconds: timeoutSeconds,
                        onBody: onBody))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    static func get(_ url: String, token: String? = nil) async throws -> ProbeResult {
        try await send("GET", url, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    /// Sends JSON to the control API.
    static func control(_ method: String, _ url: String, json: String? = nil) async throws -> ProbeResult {
        try await send(method, url, headers: json == nil ? [:] : ["Content-Type": "application/json"],
                       body: json.map { Array($0.utf8) })
    }

    private static func exchange(
        _ method: String, _ url: String, headers: [String: String], body: [UInt8]?, keepBody: Bool, timeoutSeconds: Int,
        onBody: (@Sendable (ArraySlice<UInt8>) -> Void)?
    ) throws -> ProbeResult {
        guard url.hasPrefix("http://") else { throw Failure(description: "not an http URL: \(url)") }
        let rest = url.dropFirst("http://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let target = slash == rest.endIndex ? "/" : String(rest[slash...])
        guard let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...]) else {
            throw Failure(description: "no port in \(url)")
        }
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to \(authority)") }

        var request = "\(method) \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        var outgoing = Array(request.utf8) + (body ?? [])
        while !outgoing.isEmpty {
            let sent = outgoing.withUnsafeBytes { sendBytes(fd, $0) }
            guard sent > 0 else { throw Failure(description: "send failed") }
            outgoing.removeFirst(sent)
        }

        var reader = SocketReader(fd: fd)
        guard let statusLine = try reader.line() else { throw Failure(description: "connection closed before a response") }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line \(statusLine)") }
        var responseHeaders: [String: String] = [:]
        while let line = try reader.line(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            responseHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var result = ProbeResult(status: status, headers: responseHeaders, body: [], bodyBytes: 0, complete: false,
                                 chunked: responseHeaders["transfer-encoding"]?.lowercased() == "chunked")
        func deliver(_ bytes: ArraySlice<UInt8>) {
            result.bodyBytes += bytes.count
            if keepBody { result.body.append(contentsOf: bytes) }
            onBody?(bytes)
        }
        if method == "HEAD" || status == 204 || status == 304 {
            result.complete = true
        } else if result.chunked {
            while true {
                guard let sizeLine = try reader.line(),
                      let size = Int(sizeLine.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16)
                else { return result }
                if size == 0 {
                    _ = try reader.line()
                    result.complete = true
                    return result
                }
                var remaining = size
                while remaining > 0 {
                    guard let bytes = try reader.read(upTo: remaining) else { return result }
                    deliver(bytes)
                    remaining -= bytes.count
                }
                _ = try reader.line()
            }
        } else if let lengthText = responseHeaders["content-length"], let length = Int(lengthText) {
            var remaining = length
            while remaining > 0 {
                guard let bytes = try reader.read(upTo: remaining) else { return result }
                deliver(bytes)
                remaining -= bytes.count
            }
            result.complete = true
        } else {
            while let bytes = try reader.read(upTo: 1 << 16) { deliver(bytes) }
            result.complete = true
        }
        return result
    }
}

/// Buffered reads from a socket: lines for the head and chunk sizes, raw bytes for bodies.
private struct SocketReader {
    let fd: Int32
    var buffer: [UInt8] = []
    var start = 0

    init(fd: Int32) {
        self.fd = fd
    }

    /// Reads more from the socket; false at the end of the stream.
    mutating func fill() throws -> Bool {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw HTTPProbe.Failure(description: "timed out reading") }
            return false
        }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    mutating func line() throws -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                var end = newline
                if end > start, buffer[end - 1] == 13 { end -= 1 }
                let text = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return text
            }
            guard try fill() else { return nil }
        }
    }

    mutating func read(upTo count: Int) throws -> ArraySlice<UInt8>? {
        if start == buffer.count {
            guard try fill() else { return nil }
        }
        let end = min(buffer.count, start + count)
        let slice = buffer[start..<end]
        start = end
        return slice
    }
}
