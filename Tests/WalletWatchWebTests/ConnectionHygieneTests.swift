import Foundation
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchWeb

/// What `serve` does with connections and requests a browser never makes (SPEC.md section 24),
/// over real sockets against the real server: idle connections closed (the timeout shortened
/// from its 60 s, so that a test does not wait a minute), event streams kept, unknown transfer
/// codings and absolute-form requests for another host refused.
@Suite("The web view's connections")
struct ConnectionHygieneTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    @Test("the defaults: idle connections closed after 60 s, a comment on every event stream each 15 s")
    func defaults() {
        let configuration = WebConfiguration()
        #expect(configuration.idleTimeout == .seconds(60) && configuration.eventKeepAlive == .seconds(15))
    }

    @Test("a connection that sends nothing, half a request head, or nothing after its answer is closed once idle for the timeout")
    func idleClosed() async throws {
        let web = try await WebFixture(idleTimeout: .seconds(1))
        let host = "Host: 127.0.0.1:\(web.port)\r\n"
        for (what, request) in [("nothing", ""), ("half a head", "GET /healthz HTTP/1.1\r\n\(host)X-Slow: "),
                                ("one request, kept alive", "GET /healthz HTTP/1.1\r\n\(host)\r\n")] {
            let session = try await RawHTTP.session(port: web.port, request, timeout: .seconds(20))
            let closed = try #require(session.closedAfter, "\(what): still open after 20 s")
            #expect(closed >= .milliseconds(900) && closed < .seconds(10), "\(what): closed after \(closed)")
            if what.hasPrefix("one") { #expect(session.answer.hasPrefix("HTTP/1.1 200") && session.answer.hasSuffix("ok\n"), "\(session.answer)") }
        }
    }

    @Test("an event stream outlives the idle timeout: a comment line on every keep-alive, and changes as they come")
    func eventStreamKept() async throws {
        let web = try await WebFixture(idleTimeout: .seconds(1), eventKeepAlive: .milliseconds(500))
        let stream = Task {
            try await RawHTTP.session(port: web.port, "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\r\n", timeout: .seconds(5))
        }
        try await Task.sleep(for: .seconds(3))
        _ = try web.database.createManualAsset(name: "Cash", currency: .usd, now: now)
        let session = try await stream.value
        #expect(session.closedAfter == nil, "the stream was closed after \(session.closedAfter.map { "\($0)" } ?? "")")
        #expect(session.answer.hasPrefix("HTTP/1.1 200") && session.answer.contains("text/event-stream"), "\(session.answer)")
        #expect(session.answer.components(separatedBy: ": keep-alive\n\n").count - 1 >= 4, "a comment every 0.5 s: \(session.answer)")
        #expect(session.answer.components(separatedBy: "event: change\n").count - 1 >= 2, "the current version, then the change: \(session.answer)")
    }

    @Test("a Transfer-Encoding other than chunked gets 501 and the connection is closed; after a good request, its answer comes first")
    func unknownTransferCoding() async throws {
        let web = try await WebFixture()
        let host = "Host: 127.0.0.1:\(web.port)\r\n"
        for coding in ["xchunked", "gzip, chunked", "x-custom", "GZIP , Chunked"] {
            let answer = try await RawHTTP.exchange(port: web.port, "POST /api/v1/status HTTP/1.1\r\n\(host)Transfer-Encoding: \(coding)\r\n\r\n0\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 501 Not Implemented\r\n"), "\(coding): \(answer)")
            #expect(answer.lowercased().contains("connection: close") && answer.contains("does not implement the transfer coding"), "\(answer)")
        }
        // chunked followed by another coding leaves the body's length unknown: NIO's parser
        // answers 400 itself, as RFC 9112 section 6.3 asks, and closes the connection too.
        let notLast = try await RawHTTP.exchange(port: web.port, "POST /api/v1/status HTTP/1.1\r\n\(host)Transfer-Encoding: chunked, gzip\r\n\r\n")
        #expect(notLast.hasPrefix("HTTP/1.1 400"), "\(notLast)")
        let pipelined = try await RawHTTP.exchange(port: web.port, "GET /healthz HTTP/1.1\r\n\(host)\r\nGET /healthz HTTP/1.1\r\n\(host)Transfer-Encoding: xchunked\r\n\r\n")
        #expect(pipelined.hasPrefix("HTTP/1.1 200") && pipelined.contains("ok\nHTTP/1.1 501"), "\(pipelined)")
        // chunked itself is known: the request reaches the router (which has no POST there).
        let chunked = try await RawHTTP.exchange(port: web.port, "POST /healthz HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n")
        #expect(!chunked.contains(" 501 ") && chunked.hasPrefix("HTTP/1.1 "), "\(chunked)")
    }

    @Test("an absolute-form request for another host gets 421, with or without a token; one for this host is answered")
    func absoluteForm() async throws {
        let web = try await WebFixture()
        _ = try web.database.createManualAsset(name: "Savings", currency: .usd, now: now)
        let port = web.port
        for target in ["http://evil.example/api/v1/balances", "http://evil.example:\(port)/api/v1/balances", "https://127.0.0.2:\(port)/api/v1/balances",
                       "http://127.0.0.1:\(port)@evil.example/api/v1/balances"] {
            let answer = try await RawHTTP.exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"), "\(target): \(answer)")
            #expect(!answer.contains("Savings"))
        }
        let withoutHost = try await RawHTTP.exchange(port: port, "GET http://evil.example/api/v1/balances HTTP/1.0\r\n\r\n")
        #expect(withoutHost.contains(" 421 ") && !withoutHost.contains("Savings"), "\(withoutHost)")
        let own = try await RawHTTP.exchange(port: port, "GET http://127.0.0.1:\(port)/api/v1/balances HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        #expect(own.hasPrefix("HTTP/1.1 200") && own.contains("Savings"), "\(own)")

        let secret = "0123456789abcdef0123456789abcdef"
        let tokened = try await WebFixture(token: secret)
        let misdirected = try await RawHTTP.exchange(port: tokened.port, """
            GET http://evil.example/api/v1/status HTTP/1.1\r\nHost: walletwatch.home.lan:\(tokened.port)\r\nAuthorization: Bearer \(secret)\r\n\r\n
            """)
        #expect(misdirected.hasPrefix("HTTP/1.1 421"), "\(misdirected)")
    }
}
