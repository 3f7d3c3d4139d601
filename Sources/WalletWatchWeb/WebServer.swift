import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

/// Where and how the web view listens.
public struct WebConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// When set, every route but /healthz needs `Authorization: Bearer <token>` (or, for the
    /// page, the cookie a visit to `/?token=...` sets). When nil, only requests for a loopback
    /// name are answered (see ``LoopbackHostCheck``).
    public var token: String?
    /// Called with the bound port once the server listens (port 0 picks a free one).
    public var onRunning: @Sendable (Int) -> Void
    /// A connection with no request for this long is closed (an open `/events` stream is
    /// answering one, and stays).
    public var idleTimeout: Duration
    /// How often an `/events` stream sends a comment line, so that it is never idle for a proxy.
    public var eventKeepAlive: Duration

    public init(host: String = "127.0.0.1", port: Int = 8477, token: String? = nil, idleTimeout: Duration = .seconds(60),
                eventKeepAlive: Duration = .seconds(15), onRunning: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.host = host
        self.port = port
        self.token = token
        self.idleTimeout = idleTimeout
        self.eventKeepAlive = eventKeepAlive
        self.onRunning = onRunning
    }
}

/// The web view of `walletwatch serve`: the page (the same view as `watch`, rendered by the
/// server, no external assets), server-sent events on every change, the JSON API, Prometheus
/// metrics and a health check. Connections idle for ``WebConfiguration/idleTimeout`` are
/// closed (Hummingbird's own timer, which leaves a connection alone while a response is being
/// written, an event stream included); requests with a transfer coding it does not know or an
/// absolute-form target for another host are refused before routing (``RawRequestCheck``).
public func buildApplication(engine: Engine, configuration: WebConfiguration) -> some ApplicationProtocol {
    let router = Router(context: WebRequestContext.self)
    let changes = ChangeBroadcaster(engine: engine, keepAlive: configuration.eventKeepAlive)
    let metrics = MetricsExporter()
    // First, so that it covers every route, /healthz and unknown paths included.
    if configuration.token == nil { router.add(middleware: LoopbackHostCheck()) }
    router.get("/healthz") { _, _ in "ok\n" }
    router.addRoutes(DashboardRoutes(engine: engine, changes: changes, metrics: metrics, charts: PortfolioChartsCache())
        .routes(token: configuration.token))
    let onRunning = configuration.onRunning
    let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.idleTimeout))
    return Application(
        router: router,
        server: HTTPServerBuilder { responder in CheckedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: http1)) },
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "walletwatch"),
        onServerRunning: { channel in onRunning(channel.localAddress?.port ?? configuration.port) },
        logger: engine.logger)
}

/// The routes behind authentication.
struct DashboardRoutes: Sendable {
    let engine: Engine
    let changes: ChangeBroadcaster
    let metrics: MetricsExporter
    let charts: PortfolioChartsCache

    func routes(token: String?) -> RouteCollection<WebRequestContext> {
        let routes = RouteCollection(context: WebRequestContext.self)
        if let token { routes.add(middleware: TokenAuthentication(token: token)) }
        // The daemon's rate loop keeps the rates fresh; a request never waits for a price API.
        routes.get("/") { _, _ in
            let dashboard = try await engine.liveView.dashboard(refreshRates: .never)
            return html(DashboardPage.document(dashboard, charts: charts.charts(for: dashboard.portfolio)))
        }
        routes.get("/fragment") { _, _ in
            let dashboard = try await engine.liveView.dashboard(refreshRates: .never)
            return html(DashboardPage.fragment(dashboard, charts: charts.charts(for: dashboard.portfolio)))
        }
        routes.get("/events") { _, _ in events() }
        routes.get("/api/v1/status") { _, _ in json(MonthDocument.status(try await engine.month.status(refreshRates: .never))) }
        routes.get("/api/v1/balances") { _, _ in json(BalanceDocument.json(try engine.balances.stored())) }
        routes.get("/api/v1/transactions") { request, _ in
            let query = request.uri.queryParameters
            var limit = 100
            if let text = query.get("limit") {
                guard let value = Int(text), value >= 1 else {
                    throw HTTPError(.badRequest, message: "limit '\(text)' is not a whole number of 1 or more\n")
                }
                limit = min(value, 10_000)
            }
            var status: TransactionStatus?
            if let text = query.get("status") {
                guard let value = TransactionStatus(rawValue: text) else {
                    throw HTTPError(.badRequest, message: "status '\(text)' is not one of \(TransactionStatus.allCases.map(\.rawValue).joined(separator: ", "))\n")
                }
                status = value
            }
            let filter = TransactionFilter(asset: query.get("asset"), tag: query.get("tag"), status: status, limit: limit)
            do {
                return json(.array(try engine.ledger.transactions(filter).map { TransactionDocument.json($0) }))
            } catch let refusal as Refusal {
                // An asset or tag that does not exist: what `tx list` refuses with exit 65.
                throw HTTPError(.notFound, message: refusal.message + "\n")
            }
        }
        routes.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: try await metrics.render(engine))))
        }
        return routes
    }

    /// `event: change` on every change of the database (any process), with a comment every
    /// 15 s to keep proxies from closing the stream. Ends on graceful shutdown.
    func events() -> Response {
        let subscription = changes.subscribe()
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                try await withGracefulShutdownHandler {
                    for await event in subscription.events {
                        switch event {
                        case .change(let version): try await writer.write(ByteBuffer(string: "event: change\ndata: \(version)\n\n"))
                        case .keepAlive: try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        }
                    }
                } onGracefulShutdown: {
                    subscription.end()
                }
                try await writer.finish(nil)
            })
    }
}

func html(_ text: String) -> Response {
    Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
             body: .init(byteBuffer: ByteBuffer(string: text)))
}

/// JSON exactly as the CLI prints it with --json.
func json(_ value: JSONValue) -> Response {
    Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
             body: .init(byteBuffer: ByteBuffer(string: value.pretty + "\n")))
}
