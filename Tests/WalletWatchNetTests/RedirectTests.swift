import Foundation
import Testing
@testable import WalletWatchNet

/// SPEC.md section 24: redirects are followed only to the same scheme, host and port, so a
/// bearer token never leaves its origin; a POST (a webhook) follows none.
@Suite struct RedirectTests {
    private func redirect(on server: TestServer, to location: String, status: Int = 302) -> String {
        server.url("/redirect-to?status=\(status)&location=" + location.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func followsARedirectToTheSameOriginWithTheToken(status: Int) async throws {
        try await withTestServer { server in
            let absolute = try await makeClient().send(HTTPRequest(url: redirect(on: server, to: server.url("/echo"), status: status),
                                                                   bearerToken: BearerToken("tok-123")))
            #expect(absolute.status == 200)
            #expect(String(decoding: absolute.body, as: UTF8.self).contains("authorization: Bearer tok-123"))
            let relative = try await makeClient().send(HTTPRequest(url: redirect(on: server, to: "echo?from=relative", status: status)))
            #expect(relative.status == 200)
            #expect(server.log.hits("echo") == 2)
        }
    }

    /// Another port of the same host is another origin: refused in one line naming where the
    /// redirect pointed, and the other server gets nothing (neither a request nor the token).
    @Test func refusesARedirectToAnotherPort() async throws {
        try await withTestServer { other in
            try await withTestServer { server in
                let url = redirect(on: server, to: other.url("/echo"))
                let client = makeClient()
                let error = await netError { _ = try await client.send(HTTPRequest(url: url, bearerToken: BearerToken("tok-123"))) }
                #expect(error?.kind == .redirectRefused)
                #expect(error?.description == "GET \(url): redirect to \(other.url("/echo")) refused: only the same scheme, host and port are followed")
                #expect(error.map { "\($0)".contains("tok-123") } == false)
                #expect(other.log.hits("echo") == 0)
                // Refused, not retried.
                #expect(client.statistics.attempts == 1)
            }
        }
    }

    /// 127.0.0.1 redirecting to localhost: the same server, but another host name.
    @Test func refusesARedirectToAnotherHost() async throws {
        try await withTestServer { server in
            let error = await netError { _ = try await makeClient().send(HTTPRequest(url: server.url("/redirect-other-host"), bearerToken: BearerToken("tok-123"))) }
            #expect(error?.kind == .redirectRefused)
            #expect(error?.detail == "redirect to http://localhost:\(server.port)/echo refused: only the same scheme, host and port are followed")
            #expect(server.log.hits("echo") == 0)
        }
    }

    @Test func refusesARedirectToAnotherScheme() async throws {
        try await withTestServer { server in
            let target = "https://127.0.0.1:\(server.port)/echo"
            let error = await netError { _ = try await makeClient().send(HTTPRequest(url: redirect(on: server, to: target))) }
            #expect(error?.kind == .redirectRefused)
            #expect(error?.detail == "redirect to \(target) refused: only the same scheme, host and port are followed")
        }
    }

    /// The rule on its own: the scheme's default port is the same port, written or not, and
    /// host names compare without regard to case.
    @Test(arguments: [("http://example.com:80/b", true), ("http://EXAMPLE.com/b?q=1", true), ("http://example.com:8080/b", false),
                      ("https://example.com/b", false), ("http://www.example.com/b", false), ("http://example.com.evil/b", false)])
    func comparesOrigins(target: String, followed: Bool) {
        let decision = CurlHTTPClient.redirectDecision(status: 302, target: target, request: HTTPRequest(url: "http://example.com/a"),
                                                       maxRedirects: 5, followed: 0)
        #expect((decision == .follow(target)) == followed)
    }

    /// A POST follows no redirect, whatever the client's maximum: the 3xx is the answer (the
    /// webhook sender records it as a failed attempt) and the target's Location gets nothing.
    @Test(arguments: [307, 308, 302])
    func aPostFollowsNoRedirect(status: Int) async throws {
        try await withTestServer { server in
            let response = try await makeClient().send(HTTPRequest(method: .post, url: redirect(on: server, to: server.url("/echo"), status: status),
                                                                   body: Array("{}".utf8)))
            #expect(response.status == status)
            #expect(server.log.hits("echo") == 0)
        }
    }

    /// The webhook client's configuration: maxRedirects 0 returns a GET's 3xx too.
    @Test func noRedirectIsFollowedWhenTheMaximumIsZero() async throws {
        try await withTestServer { server in
            let perRequest = try await makeClient().send(HTTPRequest(url: redirect(on: server, to: server.url("/echo"), status: 307), maxRedirects: 0))
            #expect(perRequest.status == 307)
            let perClient = try await makeClient { $0.maxRedirects = 0 }.send(HTTPRequest(url: redirect(on: server, to: server.url("/echo"), status: 307)))
            #expect(perClient.status == 307)
            #expect(server.log.hits("echo") == 0)
        }
    }

    /// Redirects share the request's timeout: a chain of hops is not allowed one timeout each.
    @Test func redirectsShareTheRequestsTimeout() async throws {
        try await withTestServer { server in
            // Each hop alone fits in 1 s; both together do not.
            let url = redirect(on: server, to: server.url("/slow?ms=600")) + "&ms=600"
            let error = await netError {
                _ = try await makeClient().send(HTTPRequest(url: url, timeout: .milliseconds(1000)))
            }
            #expect(error?.kind == .timedOut, "\(String(describing: error))")
            #expect(error?.detail == "timed out after 1 s")
        }
    }
}
