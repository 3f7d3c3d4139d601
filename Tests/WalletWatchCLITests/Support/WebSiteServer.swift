import Foundation
import Hummingbird
import Logging
import TestSupport

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
        return try await withLoopbackServer(router, label: "walletwatch-web-site") { port in try await body("http://127.0.0.1:\(port)") }
    }
}

