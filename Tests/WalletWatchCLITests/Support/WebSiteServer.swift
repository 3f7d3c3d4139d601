import Foundation
import Hummingbird
import Logging

/// A Hummingbird server on 127.0.0.1 that answers every GET with 200 and an HTML page, as a
/// web site, a router's admin page or a block explorer's front end does: what a source's url
/// reaches when it points at a web page instead of an API.
enum WebSiteServer {
    static let page = "<!DOCTYPE html>\n<html><head><title>Block explorer</title></head><body><h1>Welcome</h1></body></html>\n"

    /// Starts the server, runs `body` with its base URL, and stops the server.
    static func run<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.get("**") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
        }
        var logger = Logger(label: "walletwatch-web-site")
        logger.logLevel = .critical
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                throw WebSiteServerError.didNotStart
            }
            defer { group.cancelAll() }
            return try await body("http://127.0.0.1:\(port)")
        }
    }
}

enum WebSiteServerError: Error { case didNotStart, noFreePort }

/// A loopback port nothing listens on: bound, then closed again.
func closedPort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    guard bound else { throw WebSiteServerError.noFreePort }
    return Int(UInt16(bigEndian: address.sin_port))
}
