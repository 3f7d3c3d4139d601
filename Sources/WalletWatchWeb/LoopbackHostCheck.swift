import Hummingbird
import WalletWatchEngine

/// Without a token, answers only requests whose `Host` names this machine by a loopback name:
/// `localhost`, an IPv4 address in 127.0.0.0/8 or `[::1]`, with no port or the port the server
/// listens on. Anything else gets 421 Misdirected Request.
///
/// This defeats DNS rebinding: a web page at `evil.example` whose name its owner re-points at
/// 127.0.0.1 makes the browser connect here, but the browser still sends
/// `Host: evil.example:8477`; without this check the page could read the user's finances. A
/// browser always sends `Host`, so a request without one (HTTP/1.0) comes from a program on
/// this machine that connected by itself, which could read everything anyway: it is answered.
/// Every route is covered, `/healthz` too: a page should not even learn that walletwatch runs.
///
/// With a token this check is not installed: every route but `/healthz` needs the token,
/// which a rebinding page does not have, and the browser's session cookie belongs to the name
/// the user opened (127.0.0.1), never to `evil.example`. Host names other than loopback ones
/// are then welcome (a reverse proxy, a name on the local network).
struct LoopbackHostCheck: RouterMiddleware {
    typealias Context = WebRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1.1 conversion moves the first Host into `authority`; any other stays a header.
        if request.headers.contains(where: { $0.name.canonicalName == "host" }) {
            return refusal(.badRequest, "more than one Host header\n")
        }
        guard let host = request.head.authority else { return try await next(request, context) }
        guard Self.isLoopback(host: host, listenPort: context.localPort) else {
            let port = context.localPort.map { ":\($0)" } ?? ""
            return refusal(.misdirectedRequest, """
                walletwatch answers only requests for 127.0.0.1\(port), localhost\(port) or [::1]\(port), so that no other \
                web site can read it through a name of its own (DNS rebinding): open http://127.0.0.1\(port)/ instead, \
                or set [serve] token_file in the config to serve other names (and then use the token).

                """)
        }
        return try await next(request, context)
    }

    /// Whether `host` (a Host header: `name`, `name:port`, `[v6]` or `[v6]:port`) names this
    /// machine by a loopback name, with no port or `listenPort`.
    static func isLoopback(host: String, listenPort: Int?) -> Bool {
        var name = Substring(host)
        var port: Substring?
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return false }
                port = rest.dropFirst()
            }
            name = name[...close]
        } else if let colon = name.firstIndex(of: ":") {
            port = name[name.index(after: colon)...]
            name = name[..<colon]
        }
        if let port {
            guard let listenPort, port.count <= 5, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), Int(port) == listenPort else {
                return false
            }
        }
        // ListenAddress decides what counts as loopback, as it does for --listen (an IP literal in
        // 127.0.0.0/8, ::1, localhost; never a name by its spelling such as 127.0.0.1.evil.example).
        guard !name.isEmpty, let address = ListenAddress("\(name.lowercased()):0") else { return false }
        // `[::1]` only in brackets, as a URL writes it: a bare `::1` is no Host header.
        guard address.host.contains(":") == name.hasPrefix("[") else { return false }
        return address.isLoopback
    }

    private func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
