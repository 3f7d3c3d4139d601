import Foundation
import Testing
import TestSupport
import WalletWatchNet

/// HTTP through a real SOCKS5 proxy (microsocks): the client's route, a request's own route,
/// the exceptions, and a proxy that is down.
@Suite struct HTTPProxyTests {
    @Test func aClientRouteSendsRequestsThroughTheProxy() async throws {
        let proxy = try await SOCKSProxy()
        try await withTestServer { server in
            let client = makeClient { $0.route = proxy.route() }
            let response = try await client.send(HTTPRequest(url: server.url("/echo")))
            #expect(response.status == 200)
            #expect(proxy.targets == ["127.0.0.1:\(server.port)"])
        }
        await proxy.stop()
    }

    /// A request with a route of its own (a source or a webhook target with its own proxy)
    /// goes its way; the next request without one goes the client's way.
    @Test func aRequestRouteOverridesTheClients() async throws {
        let proxy = try await SOCKSProxy()
        try await withTestServer { server in
            let client = makeClient()
            _ = try await client.send(HTTPRequest(url: server.url("/echo"), route: proxy.route()))
            #expect(proxy.targets.count == 1)
            _ = try await client.send(HTTPRequest(url: server.url("/echo")))
            #expect(proxy.targets.count == 1)
            #expect(server.log.hits("echo") == 2)
            // And the other way round: a direct request from a proxied client.
            let proxied = makeClient { $0.route = proxy.route() }
            _ = try await proxied.send(HTTPRequest(url: server.url("/echo"), route: .direct))
            #expect(proxy.targets.count == 1)
        }
        await proxy.stop()
    }

    @Test func theExceptionsAreReachedDirectly() async throws {
        let proxy = try await SOCKSProxy()
        try await withTestServer { server in
            let client = makeClient { $0.route = proxy.route(exceptions: "localhost,127.0.0.1,::1") }
            let response = try await client.send(HTTPRequest(url: server.url("/echo")))
            #expect(response.status == 200)
            #expect(proxy.targets.isEmpty)
        }
        await proxy.stop()
    }

    @Test func aProxyThatIsDownFailsNamingTheProxy() async throws {
        let refusing = RefusingPort()
        let proxyPort = refusing.port
        let client = makeClient {
            $0.route = .proxy(url: "socks5h://127.0.0.1:\(proxyPort)", exceptions: "")
            $0.retries = 1
        }
        let error = await netError { _ = try await client.send(HTTPRequest(url: "http://example.com/api")) }
        #expect(error?.kind == .proxyFailed)
        #expect(error?.description == "GET http://example.com/api: proxy socks5h://127.0.0.1:\(proxyPort) unreachable: connection refused")
        // A proxy that is down may come back: retried like a refused connection.
        #expect(client.statistics.retries == 1)
    }

    /// Routes come from the configuration only. libcurl would take a proxy from `http_proxy`,
    /// `ALL_PROXY` and the like, and exceptions from `NO_PROXY`: a child process (this test
    /// binary, running only `environmentChild`) gets a dead proxy for every scheme and
    /// `NO_PROXY=localhost` in its environment, which this process must not change (the tests
    /// running alongside share it). Its direct request goes to 127.0.0.1, which the environment
    /// would send to the dead proxy; its proxied one to localhost, which it would send directly.
    @Test func theEnvironmentsProxiesAreIgnored() async throws {
        let dead = RefusingPort()
        let proxy = try await SOCKSProxy()
        try await withTestServer { server in
            let deadProxy = "http://127.0.0.1:\(dead.port)"
            var environment = ProcessInfo.processInfo.environment
            for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
                environment[name] = deadProxy
            }
            environment["NO_PROXY"] = "localhost"
            environment["no_proxy"] = "localhost"
            environment[Self.childURLKey] = server.url("/echo")
            environment[Self.childProxyKey] = proxy.url
            // The environment is live: curl itself, which reads it, fails through the dead proxy.
            let curl = try await ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "--noproxy", "", server.url("/echo")],
                                                   environment: environment, currentDirectory: "/")
            #expect(curl.status == 7, "curl exited \(curl.status)")
            #expect(server.log.hits("echo") == 0)

            let child = try await ProcessRunner.run(
                try Self.testBinary(), ["--testing-library", "swift-testing", "--filter", "environmentChild"],
                environment: environment, currentDirectory: "/")
            #expect(child.status == 0, "\(child.stdout.suffix(2000))\n\(child.stderr.suffix(2000))")
            // swift-testing reports on stderr: the child test ran (not skipped) and passed.
            #expect(child.stderr.contains("Test environmentChild() passed"), "\(child.stderr.suffix(2000))")
            #expect(server.log.hits("echo") == 2)
            // The proxied request went through the configured proxy despite NO_PROXY.
            #expect(proxy.targets == ["localhost:\(server.port)"])
        }
        await proxy.stop()
    }

    private static let childURLKey = "WALLETWATCH_NET_TEST_ENVIRONMENT_CHILD_URL"
    private static let childProxyKey = "WALLETWATCH_NET_TEST_ENVIRONMENT_CHILD_PROXY"

    /// The child's half of `theEnvironmentsProxiesAreIgnored`; runs only in that child.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childURLKey] != nil))
    func environmentChild() async throws {
        let environment = ProcessInfo.processInfo.environment
        let url = try #require(environment[Self.childURLKey])
        let proxy = try #require(environment[Self.childProxyKey])
        let direct = try await makeClient { $0.retries = 0 }.send(HTTPRequest(url: url))
        #expect(direct.status == 200)
        let viaLocalhost = url.replacing("127.0.0.1", with: "localhost")
        let proxied = try await makeClient { $0.retries = 0 }.send(HTTPRequest(url: viaLocalhost, route: .proxy(url: proxy, exceptions: "")))
        #expect(proxied.status == 200)
    }

    /// The executable this test runs in.
    private static func testBinary() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    @Test(arguments: [
        ("localhost,127.0.0.1,::1", "127.0.0.1", nil), ("localhost,127.0.0.1,::1", "[::1]", nil), ("localhost,127.0.0.1,::1", "LOCALHOST", nil),
        ("localhost,127.0.0.1,::1", "electrum.example", "socks5h://p:9050"), ("", "localhost", "socks5h://p:9050"),
        ("*", "anything.example", nil), ("example.com", "www.example.com", nil), (".example.com", "example.com", nil),
        ("example.com", "notexample.com", "socks5h://p:9050"), ("example.com.", "example.com", nil), ("10.0.0.0/8", "10.1.2.3", nil),
        ("10.0.0.0/8", "11.1.2.3", "socks5h://p:9050"), ("fd00::/8", "fd12::1", nil), ("192.168.1.1", "192.168.1.2", "socks5h://p:9050"),
        ("a.example, b.example", "b.example", nil),
    ] as [(String, String, String?)])
    func matchesExceptionsAsLibcurlDoes(exceptions: String, host: String, proxy: String?) {
        #expect(NetworkRoute.proxy(url: "socks5h://p:9050", exceptions: exceptions).proxy(for: host) == proxy)
        #expect(NetworkRoute.direct.proxy(for: host) == nil)
    }
}
