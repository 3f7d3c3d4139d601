import Foundation
import Logging
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchNet
@testable import WalletWatchWeb

/// The defences of the web view, over real HTTP against `buildApplication` on a free port.
@Suite("The web view's defences")
struct WebSecurityTests {
    let now = Instant.at("2026-11-21T12:00:00Z")
    static let routes = ["/", "/fragment", "/events", "/api/v1/status", "/api/v1/balances", "/api/v1/transactions", "/metrics", "/healthz",
                         "/no-such-page"]

    /// A web view without a token over a database holding something worth stealing.
    func tokenless() async throws -> WebFixture {
        let web = try await WebFixture()
        _ = try web.database.createManualAsset(name: "Savings", currency: .usd, now: now)
        _ = try web.database.addManualTransaction(assetName: "Savings", amount: "1234.56", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        return web
    }

    @Test("DNS rebinding: without a token, a request for another host name gets 421 on every route, events and health included")
    func rebindingRefused() async throws {
        let web = try await tokenless()
        let port = web.port
        for path in Self.routes {
            let answer = try await web.get(path, headers: [HTTPHeader("Host", "rebind.evil.example:\(port)")])
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 421, "\(path) answered \(answer.status) for another host name")
            #expect(answer.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(body.contains("open http://127.0.0.1:\(port)/ instead") && body.contains("[serve] token_file"), "\(body)")
            #expect(!body.contains("Savings") && !body.contains("123456") && !body.contains("1234.56"))
        }
        // Names that only look like this machine, and this machine on another port.
        for host in ["rebind.evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example", "localhost.:\(port)",
                     "127.1:\(port)", "2130706433:\(port)", "0x7f.0.0.1", "[::2]:\(port)", "[::ffff:7f00:1]", "[localhost]",
                     "localhost:\(port + 1)", "127.0.0.1:\(port)0", "127.0.0.1:", "[::1]\(port)", "evil.example:\(port)@127.0.0.1"] {
            let answer = try await web.get("/api/v1/balances", headers: [HTTPHeader("Host", host)])
            #expect(answer.status == 421, "Host: \(host) answered \(answer.status)")
        }
    }

    @Test("without a token, loopback names are answered, with the listen port or none")
    func loopbackAnswered() async throws {
        let web = try await tokenless()
        let port = web.port
        let expected = String(decoding: try await web.get("/api/v1/balances").body, as: UTF8.self)
        #expect(expected.contains("Savings"))
        for host in ["127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "localhost", "LocalHost:\(port)", "127.42.0.7:\(port)",
                     "[::1]:\(port)", "[::1]", "[0:0:0:0:0:0:0:1]:\(port)"] {
            let answer = try await web.get("/api/v1/balances", headers: [HTTPHeader("Host", host)])
            #expect(answer.status == 200, "Host: \(host) answered \(answer.status)")
            #expect(String(decoding: answer.body, as: UTF8.self) == expected, "Host: \(host)")
        }
        for path in Self.routes where path != "/events" && path != "/no-such-page" {
            #expect(try await web.get(path, headers: [HTTPHeader("Host", "localhost:\(port)")]).status == 200, "\(path)")
        }
        let watcher = StreamWatcher()
        let events = Task {
            try await web.http.stream(HTTPRequest(url: web.url("/events"), headers: [HTTPHeader("Host", "localhost:\(port)")], timeout: .seconds(120)),
                                      into: watcher)
        }
        #expect(await eventually(within: .seconds(30)) { watcher.received.contains("event: change") }, "the event stream for localhost")
        events.cancel()
    }

    /// What libcurl will not send: no Host at all (HTTP/1.0), an empty one, two of them.
    @Test("without a token: no Host (HTTP/1.0) is answered; an empty Host is refused, two Hosts are a bad request")
    func oddHostHeaders() async throws {
        let web = try await tokenless()
        let withoutHost = try await RawHTTP.exchange(port: web.port, "GET /api/v1/balances HTTP/1.0\r\nConnection: close\r\n\r\n")
        #expect(withoutHost.hasPrefix("HTTP/1.1 200") || withoutHost.hasPrefix("HTTP/1.0 200"), "\(withoutHost)")
        #expect(withoutHost.contains("Savings"))
        let empty = try await RawHTTP.exchange(port: web.port, "GET /api/v1/balances HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n")
        #expect(empty.contains(" 421 ") && empty.contains("open http://127.0.0.1:\(web.port)/ instead"), "\(empty)")
        #expect(!empty.contains("Savings"))
        let two = try await RawHTTP.exchange(
            port: web.port, "GET /api/v1/balances HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nHost: rebind.evil.example\r\nConnection: close\r\n\r\n")
        #expect(two.contains(" 400 ") && two.contains("more than one Host header"), "\(two)")
        #expect(!two.contains("Savings"))
    }

    @Test("with a token, the token decides, whatever the Host")
    func tokenIgnoresHost() async throws {
        let secret = "0123456789abcdef0123456789abcdef"
        let web = try await WebFixture(token: secret)
        let otherName = [HTTPHeader("Host", "walletwatch.home.lan:\(web.port)")]
        #expect(try await web.get("/api/v1/status", token: secret, headers: otherName).status == 200)
        #expect(try await web.get("/api/v1/status", headers: otherName).status == 401)
        #expect(try await web.get("/healthz", headers: otherName).status == 200)
    }

    /// The cookie `/?token=` sets, taken from the 303.
    func login(_ web: WebFixture, token: String) async throws -> (header: String, value: String) {
        let client = CurlHTTPClient(configuration: HTTPClientConfiguration(retries: 0, userAgent: "test", maxRedirects: 0), logger: Logger(label: "t"))
        let query = try #require(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let answer = try await client.send(HTTPRequest(url: web.url("/?token=\(query)")))
        #expect(answer.status == 303)
        let header = try #require(answer.header("Set-Cookie"))
        let pair = try #require(header.split(separator: ";").first)
        let value = try #require(pair.split(separator: "=", maxSplits: 1).last)
        return (header, String(value))
    }

    @Test("the cookie of /?token= is not the token nor an encoding of it; it opens the page and its events, and no later server")
    func sessionCookie() async throws {
        let secret = "Wq7_x.9~kP/2mZ-r8sT4+vN6bY0cL="
        let web = try await WebFixture(token: secret)
        let (header, cookie) = try await login(web, token: secret)

        let bytes = Data(secret.utf8)
        let encodings = [secret, bytes.base64EncodedString(),
                         bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"),
                         bytes.map { String(format: "%02x", $0) }.joined(), bytes.map { String(format: "%02X", $0) }.joined(),
                         secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
                         secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!]
        for encoding in encodings {
            #expect(!header.contains(encoding), "the cookie holds the token as \(encoding)")
            #expect(!header.contains(String(encoding.prefix(8))), "the cookie holds part of the token as \(encoding)")
        }
        let attributes = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Strict") && attributes.contains("Path=/"))
        #expect(!attributes.contains { $0.lowercased() == "secure" }, "served over http: a Secure cookie would never come back")

        let withCookie = [HTTPHeader("Cookie", "walletwatch_session=\(cookie)")]
        let page = try await web.get("/", headers: withCookie)
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).hasPrefix("<!doctype html>"))
        #expect(try await web.get("/fragment", headers: withCookie).status == 200)
        let watcher = StreamWatcher()
        let events = Task { try await web.http.stream(HTTPRequest(url: web.url("/events"), headers: withCookie, timeout: .seconds(120)), into: watcher) }
        #expect(await eventually(within: .seconds(30)) { watcher.received.contains("event: change") }, "the event stream with the cookie")
        events.cancel()
        // The API is the token's: the cookie is no credential for it.
        #expect(try await web.get("/api/v1/status", headers: withCookie).status == 401)
        #expect(try await web.get("/api/v1/status", token: secret).status == 200)
        #expect(try await web.get("/", token: secret).status == 200)

        // A forged cookie, the token itself as a cookie (what earlier versions set), and the
        // cookie of another run of the server (a restart) all get 401.
        var forged = Array(cookie)
        forged[forged.count / 2] = forged[forged.count / 2] == "0" ? "1" : "0"
        let restarted = try await WebFixture(token: secret)
        let (_, laterCookie) = try await login(restarted, token: secret)
        #expect(laterCookie != cookie)
        for (server, value) in [(web, String(forged)), (web, secret), (restarted, cookie)] {
            for name in ["walletwatch_session", "walletwatch_token"] {
                for path in ["/", "/events", "/fragment"] {
                    #expect(try await server.get(path, headers: [HTTPHeader("Cookie", "\(name)=\(value)")]).status == 401, "\(path) with \(name)=\(value)")
                }
            }
        }
        #expect(try await restarted.get("/", headers: [HTTPHeader("Cookie", "walletwatch_session=\(laterCookie)")]).status == 200)
    }
}
