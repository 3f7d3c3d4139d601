import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends bytes exactly as given to a port on 127.0.0.1 and reads the answer until the server
/// closes: for requests libcurl will not write (no Host header, two Host headers, an
/// absolute-form target, an unknown transfer coding) and connections left idle. The socket
/// blocks a thread of its own, never one of the cooperative threads the server answers on.
enum RawHTTP {
    static func exchange(port: Int, _ request: String) async throws -> String {
        try await session(port: port, request, timeout: .seconds(60)).answer
    }

    /// What came back on one connection, and whether and when the server closed it.
    struct Session {
        let answer: String
        /// How long after the request was sent the server closed the connection; nil when it
        /// was still open at the timeout.
        let closedAfter: Duration?
    }

    /// Sends `request` (possibly nothing, or half a request) and reads until the server closes
    /// the connection or `timeout` passes.
    static func session(port: Int, _ request: String, timeout: Duration) async throws -> Session {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingSession(port: port, request, timeout: timeout) })
            }.start()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func blockingSession(port: Int, _ request: String, timeout: Duration) throws -> Session {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        // Short reads, so that the deadline is checked between them.
        var slice = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        let bytes = Array(request.utf8)
        guard bytes.isEmpty || send(socket, bytes, bytes.count, 0) == bytes.count else { throw Failure(description: "send: \(errno)") }
        let started = ContinuousClock.now
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now - started < timeout {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return Session(answer: String(decoding: answer, as: UTF8.self), closedAfter: ContinuousClock.now - started) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                if errno == ECONNRESET { return Session(answer: String(decoding: answer, as: UTF8.self), closedAfter: ContinuousClock.now - started) }
                throw Failure(description: "recv: \(errno) after \(answer.count) bytes")
            }
            answer += buffer[0..<count]
        }
        return Session(answer: String(decoding: answer, as: UTF8.self), closedAfter: nil)
    }
}
