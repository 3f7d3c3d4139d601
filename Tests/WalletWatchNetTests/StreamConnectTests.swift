import Testing
import TestSupport
import WalletWatchNet

/// How a stream's connect fails, each in one line naming `tcp://` or `ssl://HOST:PORT`, and
/// streams through a real SOCKS5 proxy (microsocks).
@Suite struct StreamConnectTests {
    @Test func aRefusedConnection() async throws {
        let refusing = RefusingPort()
        let port = refusing.port
        let error = await netError { _ = try await connect(StreamEndpoint(host: "127.0.0.1", port: port, security: .plain)) }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.description == "tcp://127.0.0.1:\(port): connection refused")
    }

    @Test func anUnknownHost() async throws {
        let error = await netError { _ = try await connect(StreamEndpoint(host: "electrum.invalid", port: 50002, security: .tls(pin: nil))) }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.description == "ssl://electrum.invalid:50002: could not resolve host electrum.invalid")
    }

    /// A listener whose backlog is full never completes the handshake: the connect gives up
    /// after its timeout, not before and not much later.
    @Test func theConnectTimeout() async throws {
        let listener = FullBacklogListener()
        var error: NetError?
        let took = await elapsed {
            error = await netError {
                _ = try await connect(StreamEndpoint(host: "127.0.0.1", port: listener.port, security: .plain), connectTimeout: .milliseconds(500))
            }
        }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.description == "tcp://127.0.0.1:\(listener.port): could not connect within 500 ms")
        #expect(took >= .milliseconds(450) && took < .seconds(5), "took \(took)")
    }

    /// A TLS server that accepts but never answers the handshake is cut off by the same timeout.
    @Test func theConnectTimeoutCoversTheTLSHandshake() async throws {
        let server = try await LineServer(tls: false)
        let endpoint = StreamEndpoint(host: "127.0.0.1", port: server.port, security: .tls(pin: nil))
        // The plain server waits for a line; a ClientHello has none, so nothing comes back.
        let error = await netError { _ = try await connect(endpoint, connectTimeout: .milliseconds(700)) }
        #expect(error?.description == "ssl://127.0.0.1:\(server.port): could not connect within 700 ms")
        await server.stop()
    }

    /// Cancelling a connect that hangs releases the caller at once.
    @Test func cancellingAConnectIsPrompt() async throws {
        let listener = FullBacklogListener()
        let task = Task { try await connect(StreamEndpoint(host: "127.0.0.1", port: listener.port, security: .plain), connectTimeout: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(100))
        let took = await elapsed {
            task.cancel()
            #expect(((await task.result).failure as? NetError)?.kind == .cancelled)
        }
        #expect(took < .seconds(1), "took \(took)")
    }

    @Test func aProxyThatIsDown() async throws {
        let refusing = RefusingPort()
        let proxyPort = refusing.port
        let route = NetworkRoute.proxy(url: "socks5h://walletwatch:secret@127.0.0.1:\(proxyPort)", exceptions: "")
        let error = await netError { _ = try await connect(StreamEndpoint(host: "electrum.example", port: 50001, security: .plain), route: route) }
        #expect(error?.kind == .proxyFailed)
        #expect(error?.description == "tcp://electrum.example:50001: proxy socks5h://127.0.0.1:\(proxyPort) unreachable: connection refused")
        #expect(error.map { "\($0)".contains("secret") } == false)
    }

    /// Pinned TLS through microsocks to `localhost`: the proxy logs the name itself, so the
    /// name was resolved by the proxy (socks5h), not looked up here.
    @Test func tlsThroughASOCKS5ProxyLeavesTheNameToIt() async throws {
        let proxy = try await SOCKSProxy()
        let server = try await LineServer(tls: true)
        let stream = try await connect(server.endpoint(pin: server.certificate?.pin, host: "localhost"), route: proxy.route())
        try await expectEcho(stream, "through the proxy")
        #expect(proxy.targets == ["localhost:\(server.port)"])
        stream.close()
        await server.stop()
        await proxy.stop()
    }

    /// What the proxy reports about the server is about the server.
    @Test func aServerRefusingTheProxy() async throws {
        let proxy = try await SOCKSProxy()
        let refusing = RefusingPort()
        let port = refusing.port
        let error = await netError { _ = try await connect(StreamEndpoint(host: "127.0.0.1", port: port, security: .plain), route: proxy.route()) }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.description == "tcp://127.0.0.1:\(port): connection refused (reported by proxy \(proxy.url))")
        await proxy.stop()
    }

    /// A host in the exceptions is reached directly: the proxy sees nothing.
    @Test func theExceptionsGoDirectly() async throws {
        let proxy = try await SOCKSProxy()
        let server = try await LineServer(tls: false)
        let stream = try await connect(server.endpoint(), route: proxy.route(exceptions: "localhost,127.0.0.1,::1"))
        try await expectEcho(stream, "direct")
        #expect(proxy.targets.isEmpty)
        stream.close()
        await server.stop()
        await proxy.stop()
    }
}
