import Hummingbird
import Logging
import ServiceLifecycle

/// A running simulator of the APIs walletwatch polls, on one loopback port:
/// barkd wallets under `/barkd/<wallet>`, Esplora under `/esplora`, CoinGecko under
/// `/coingecko/api/v3`, mempool.space prices under `/mempool/api`, an EVM chain (a scenario's
/// `evm` section) as JSON-RPC under `/evm` and as explorer APIs under `/etherscan/v2/api` and
/// `/blockscout/api`, and the control API under `/control` (see ``ControlRoutes``). A scenario with a `bitcoin` section (a real chain) is also
/// served by an Electrum server on two more ports (TCP and TLS, see ``endpoints``) and by a
/// Bitcoin Core JSON-RPC face under `/bitcoind/`, which a real ElectrumX can index.
///
/// ```swift
/// let sim = try await Simulator.start(scenario: Scenario(wallets: [WalletScenario(name: "ark", token: "t")]))
/// let url = sim.barkdURL("ark")   // http://127.0.0.1:PORT/barkd/ark
/// try await sim.addMovement(BarkdMovement(subsystem: .arkoorReceive, effectiveBalanceSat: 50_000,
///                                         time: .completed(at: sim.now)), to: "ark")
/// ...
/// await sim.stop()
/// ```
public final class Simulator: Sendable {
    /// `http://HOST:PORT`.
    public let baseURL: String
    /// The bound port (the real one when started with port 0).
    public let port: Int
    /// A real chain's Electrum and Core faces; nil without a `bitcoin` section.
    public let endpoints: BitcoinEndpoints?
    let state: SimulatorState
    private let group: ServiceGroup
    private let server: Task<Void, Never>
    private let electrum: ElectrumFace?

    private init(baseURL: String, port: Int, state: SimulatorState, group: ServiceGroup, server: Task<Void, Never>, electrum: ElectrumFace?) {
        self.baseURL = baseURL
        self.port = port
        self.state = state
        self.group = group
        self.server = server
        self.electrum = electrum
        endpoints = electrum?.endpoints
    }

    /// Starts serving `scenario` on `host:port` (port 0 picks a free one) and returns once the
    /// ports are bound. With a `bitcoin` section the Electrum face listens on `electrumTCPPort`
    /// and `electrumTLSPort` (0: free ones), with a certificate made now and written, with its
    /// key, into `tlsDirectory` (nil: a temporary folder removed at stop). `onRequest` sees every
    /// recorded HTTP request (for verbose logging).
    public static func start(
        scenario: Scenario = Scenario(), host: String = "127.0.0.1", port: Int = 0, electrumTCPPort: Int = 0, electrumTLSPort: Int = 0,
        tlsDirectory: String? = nil, onRequest: (@Sendable (RequestRecord) -> Void)? = nil
    ) async throws -> Simulator {
        let state = try SimulatorState(scenario: scenario)
        let (bound, boundContinuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        var app = Application(
            router: router(state: state, onRequest: onRequest),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? port)
                boundContinuation.finish()
            })
        // Hummingbird logs "Server started" (info) and a cancelled accept loop (error) on stop;
        // neither is news to a simulator's user.
        app.logger.logLevel = .critical
        // Run as a service so that stop() can shut the server down gracefully: cancelling it
        // while an accepted connection waits to be served traps in NIO ("Deinited
        // NIOAsyncWriter without calling finish()", swift-nio #3481).
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: app.logger))
        let server = Task {
            do {
                try await group.run()
                boundContinuation.finish()
            } catch {
                boundContinuation.finish(throwing: error)
            }
        }
        let boundPort: Int
        do {
            var iterator = bound.makeAsyncIterator()
            guard let port = try await iterator.next() else {
                throw SimulatorError(.invalid, "the server stopped before it was listening")
            }
            boundPort = port
        } catch {
            await group.triggerGracefulShutdown()
            await server.value
            throw SimulatorError(.invalid, "cannot listen on \(host):\(port): \(error)")
        }
        let hostInURL = host.contains(":") ? "[\(host)]" : host
        let baseURL = "http://\(hostInURL):\(boundPort)"
        var electrum: ElectrumFace?
        if let bitcoin = scenario.bitcoin {
            do {
                electrum = try await ElectrumFace.start(
                    state: state, bitcoin: bitcoin, host: host, baseURL: baseURL, ports: (electrumTCPPort, electrumTLSPort), tlsDirectory: tlsDirectory)
            } catch {
                await stop(state: state, group: group, server: server, electrum: nil)
                throw SimulatorError(.invalid, "cannot serve Electrum on \(host): \(error)")
            }
        }
        return Simulator(baseURL: baseURL, port: boundPort, state: state, group: group, server: server, electrum: electrum)
    }

    /// Every route. The control API comes before the middlewares that record requests and
    /// inject faults, which thus apply to the simulated APIs only.
    private static func router(state: SimulatorState, onRequest: (@Sendable (RequestRecord) -> Void)?) -> Router<SimRequestContext> {
        let router = Router(context: SimRequestContext.self)
        ControlRoutes(state: state).register(on: router)
        router.add(middleware: RequestLogMiddleware(state: state, onRequest: onRequest))
        router.add(middleware: FaultMiddleware(state: state))
        router.add(middleware: NotFoundMiddleware())
        CoreRPCRoutes(state: state).register(on: router)
        BarkdRoutes(state: state).register(on: router)
        EsploraRoutes(state: state).register(on: router)
        PriceRoutes(state: state).register(on: router)
        PriceHistoryRoutes(state: state).register(on: router)
        EVMRoutes(state: state).register(on: router)
        ArkadeRoutes(state: state).register(on: router)
        return router
    }

    /// Stops serving: no new connection is accepted, long polls and slow faults answer at
    /// once, connections close when their response is written; a response still being written
    /// after a second (a long history to a slow reader) is cut off. Electrum connections close at
    /// once, and the TLS files of a temporary folder are removed.
    public func stop() async {
        await Self.stop(state: state, group: group, server: server, electrum: electrum)
    }

    private static func stop(state: SimulatorState, group: ServiceGroup, server: Task<Void, Never>, electrum: ElectrumFace?) async {
        await state.beginStopping()
        await electrum?.stop()
        await group.triggerGracefulShutdown()
        let cutOff = Task {
            try await Task.sleep(for: .seconds(1))
            server.cancel()
        }
        await server.value
        cutOff.cancel()
    }

    /// A simulator dropped without stop() stops in the background, the same graceful way.
    deinit {
        Task { [state, group, server, electrum] in await Self.stop(state: state, group: group, server: server, electrum: electrum) }
    }

    // MARK: URLs

    /// The base URL of a barkd wallet, as a walletwatch source's `url`: `http://...:PORT/barkd/ark`.
    public func barkdURL(_ wallet: String) -> String { baseURL + "/barkd/" + wallet }

    /// The Esplora base URL (`.../esplora`), followed by `/address/...`, `/blocks/tip/height`.
    public var esploraURL: String { baseURL + "/esplora" }

    /// The CoinGecko base URL (`.../coingecko/api/v3`), followed by `/simple/price` or
    /// `/coins/bitcoin/market_chart/range`.
    public var coingeckoURL: String { baseURL + "/coingecko/api/v3" }

    /// The mempool.space base URL (`.../mempool/api`), followed by `/v1/prices` or `/v1/historical-price`.
    public var mempoolURL: String { baseURL + "/mempool/api" }

    /// A Fulmine wallet's REST base URL, as a fulmine source's `url`: `http://...:PORT/fulmine/<wallet>/api`.
    public func fulmineURL(_ wallet: String) -> String { baseURL + "/fulmine/" + wallet + "/api" }

    /// The Ark server's (arkd's) base URL, as an arkd source's `url`: `http://...:PORT/arkd`.
    public var arkdURL: String { baseURL + "/arkd" }

    /// The control API's base URL (`.../control`).
    public var controlURL: String { baseURL + "/control" }

    /// The simulator's clock now (the scenario's `now` plus the time since start, or wall time).
    public var now: SimTime { state.clock.now() }
}
