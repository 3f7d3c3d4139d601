import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation
import WalletWatchNet
import WalletWatchSim
import WalletWatchStore
@testable import WalletWatchWeb

// Hummingbird re-exports HTTPTypes, whose HTTPRequest/HTTPResponse share the names of ours.
typealias HTTPRequest = WalletWatchNet.HTTPRequest
typealias HTTPResponse = WalletWatchNet.HTTPResponse

/// The web view running in this process on a free port, over a database in a temporary
/// folder, reached through the real HTTP client.
final class WebFixture: @unchecked Sendable {
    let folder = TemporaryDirectory("walletwatch-web")
    let engine: Engine
    /// The web view's database, for a test to put something in.
    let database: AppDatabase
    let http: CurlHTTPClient
    private var serverTask: Task<Void, any Error>?
    private(set) var port = 0

    init(token: String? = nil, now: String = "2026-11-21T12:00:00Z", rates: RatesConfig? = nil,
         idleTimeout: Duration = .seconds(60), eventKeepAlive: Duration = .seconds(15)) async throws {
        let database = try AppDatabase.open(path: folder.file("walletwatch.sqlite"))
        self.database = database
        let logger = Logger(label: "web-test")
        http = CurlHTTPClient(configuration: HTTPClientConfiguration(timeout: .seconds(60), retries: 0, userAgent: "test"), logger: logger)
        var config = AppConfig(file: nil, database: folder.file("walletwatch.sqlite"))
        config.rates = rates ?? RatesConfig(provider: .static, staticRates: [CurrencyPair("BTC/USD")!: 65000])
        engine = Engine(storage: Storage(database), config: config, clock: .fixed(.at(now)), http: http, logger: logger)
        let bound = AsyncStream<Int>.makeStream()
        let app = buildApplication(engine: engine, configuration: WebConfiguration(
            port: 0, token: token, idleTimeout: idleTimeout, eventKeepAlive: eventKeepAlive, onRunning: { bound.continuation.yield($0) }))
        serverTask = Task { try await app.run() }
        for await port in bound.stream {
            self.port = port
            break
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func get(_ path: String, token: String? = nil, headers: [HTTPHeader] = []) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(url: url(path), headers: headers, bearerToken: token.map(BearerToken.init)))
    }

    func json(_ path: String, token: String? = nil) async throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try await get(path, token: token).body))
    }

    deinit { serverTask?.cancel() }
}

/// Collects a streamed body and signals when some text appears in it.
final class StreamWatcher: HTTPBodyConsumer, @unchecked Sendable {
    private let text = Mutex("")
    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        let piece = String(decoding: chunk, as: UTF8.self)
        text.withLock { $0 += piece }
    }
    var received: String { text.withLock { $0 } }
}

@Suite("The web view")
struct WebTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    @Test("the API prints exactly the CLI's documents; health needs nothing")
    func api() async throws {
        let web = try await WebFixture()
        _ = try web.database.createManualAsset(name: "Cash", currency: .usd, now: now)
        _ = try web.database.addManualTransaction(assetName: "Cash", amount: "100", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        _ = try web.database.createGoal(name: "House", currency: .usd, target: 100_000, deadline: Day("2027-06-30"), now: now)
        #expect(String(decoding: try await web.get("/healthz").body, as: UTF8.self) == "ok\n")
        let status = try await web.get("/api/v1/status")
        #expect(status.header("Content-Type") == "application/json")
        #expect(String(decoding: status.body, as: UTF8.self) == MonthDocument.status(try await web.engine.month.status()).pretty + "\n")
        let transactions = try #require(try await web.json("/api/v1/transactions?limit=5") as? [[String: Any]])
        #expect(transactions.first?["amount"] as? Int == 10000)
        let balances = try #require(try await web.json("/api/v1/balances") as? [String: Any])
        #expect((balances["assets"] as? [[String: Any]])?.first?["balance"] as? Int == 10000)

        // A filter the CLI refuses is refused here too, naming what was wrong, never ignored.
        let misspelt = try await web.get("/api/v1/transactions?status=confirmd")
        #expect(misspelt.status == 400)
        #expect(String(decoding: misspelt.body, as: UTF8.self).contains("status 'confirmd' is not one of pending, confirmed, failed"))
        #expect(try await web.get("/api/v1/transactions?limit=ten").status == 400)
        let unknown = try await web.get("/api/v1/transactions?asset=Nope")
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("Nope"))
        #expect(try await web.get("/api/v1/transactions?status=confirmed&asset=cash").status == 200)
    }

    /// A price API that hangs for 30 s must not hold up the page or the status API: fetching
    /// rates is the daemon's rate loop's job; the views use what is stored, marked stale or
    /// missing as it is.
    @Test("the page and the status API never wait for a price API")
    func viewsDoNotFetchRates() async throws {
        let simulator = try await Simulator.start()
        try await simulator.addFault(.slow(seconds: 30), at: "/coingecko/api/v3/simple/price")
        let web = try await WebFixture(rates: RatesConfig(provider: .coingecko, url: simulator.coingeckoURL))
        let database = web.database
        _ = try database.createManualAsset(name: "Stack", currency: .btc, now: now)
        _ = try database.addManualTransaction(assetName: "Stack", amount: "0.1", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        _ = try database.createGoal(name: "House", currency: .usd, target: 100_000, deadline: Day("2027-06-30"), now: now)
        _ = try database.allocate(assetName: "Stack", assignments: [("House", "100%")], now: now)
        #expect(try await web.get("/").status == 200)
        #expect(try await web.get("/fragment").status == 200)
        #expect(try await web.get("/api/v1/status").status == 200)
        #expect(await simulator.requests(matching: "/coingecko").isEmpty, "a view asked the price API")
        await simulator.stop()
    }

    @Test("with a token every route but /healthz needs it; a browser gets a cookie from /?token=")
    func token() async throws {
        let secret = "0123456789abcdef0123456789abcdef"
        let web = try await WebFixture(token: secret)
        #expect(try await web.get("/healthz").status == 200)
        for path in ["/", "/fragment", "/api/v1/status", "/api/v1/balances", "/api/v1/transactions", "/metrics"] {
            #expect(try await web.get(path).status == 401, "\(path) without a token")
            #expect(try await web.get(path, token: "wrong").status == 401, "\(path) with a wrong token")
            #expect(try await web.get(path, token: secret).status == 200, "\(path) with the token")
        }
        let client = CurlHTTPClient(configuration: HTTPClientConfiguration(retries: 0, userAgent: "test", maxRedirects: 0), logger: Logger(label: "t"))
        let login = try await client.send(HTTPRequest(url: web.url("/?token=\(secret)")))
        #expect(login.status == 303)
        let cookie = try #require(login.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let withCookie = try await web.get("/", headers: [HTTPHeader("Cookie", String(cookie.split(separator: ";")[0]))])
        #expect(withCookie.status == 200)
    }

    @Test("a change made through another connection reaches /events within 2 s")
    func events() async throws {
        let web = try await WebFixture()
        let watcher = StreamWatcher()
        let stream = Task { try await web.http.stream(HTTPRequest(url: web.url("/events"), timeout: .seconds(120)), into: watcher) }
        #expect(await eventually(within: .seconds(30)) { watcher.received.contains("event: change") }, "the first event")
        let before = watcher.received.components(separatedBy: "event: change").count
        let other = try AppDatabase.open(path: web.folder.file("walletwatch.sqlite"))
        let wrote = ContinuousClock.now
        _ = try other.createManualAsset(name: "Piggy bank", currency: .eur, now: now)
        #expect(await eventually(within: .seconds(2)) { watcher.received.components(separatedBy: "event: change").count > before },
                "no event within 2 s of the write")
        #expect(ContinuousClock.now - wrote < .seconds(2))

        // A page that reconnects (a phone waking up) is not the first subscriber, and nothing
        // changes meanwhile: it still starts with the current version, so it catches up on
        // whatever it missed while away.
        let latecomer = StreamWatcher()
        let second = Task { try await web.http.stream(HTTPRequest(url: web.url("/events"), timeout: .seconds(120)), into: latecomer) }
        #expect(await eventually(within: .seconds(30)) { latecomer.received.contains("event: change") }, "no event for a later subscriber")
        stream.cancel()
        second.cancel()
    }

    @Test("metrics: runs and failures per source, last success, retries, transactions, goal progress")
    func metrics() async throws {
        let web = try await WebFixture()
        let database = web.database
        var pass = try await database.beginPass(source: "ark", now: now)
        let asset = try await pass.asset(.ark, named: "Ark wallet")
        try await pass.record([ObservedTransaction(txid: "ark:ark:1", amount: 5, type: .ark, status: .confirmed, date: now)], in: asset)
        _ = try await pass.publish(startedAt: now) { _ in }
        try await database.recordIngestFailure(source: "ark", startedAt: now, finishedAt: now, error: "boom")
        let text = String(decoding: try await web.get("/metrics").body, as: UTF8.self)
        #expect(text.contains(#"walletwatch_ingest_runs_total{source="ark"} 2"#))
        #expect(text.contains(#"walletwatch_ingest_failures_total{source="ark"} 1"#))
        #expect(text.contains(#"walletwatch_ingest_last_success_timestamp_seconds{source="ark"} 1795262400"#))
        #expect(text.contains("walletwatch_transactions_stored 1"))
        #expect(text.contains("walletwatch_http_retries_total"))
        // Counters keep counting across scrapes.
        try await database.recordIngestFailure(source: "ark", startedAt: now, finishedAt: now, error: "boom")
        let later = String(decoding: try await web.get("/metrics").body, as: UTF8.self)
        #expect(later.contains(#"walletwatch_ingest_failures_total{source="ark"} 2"#))

        // Goal progress this month: nothing received yet of what is planned; a goal that
        // leaves the month leaves the metrics too.
        _ = try database.createGoal(name: "House", currency: .usd, target: 100_000, deadline: Day("2027-06-30"), now: now)
        let withGoal = String(decoding: try await web.get("/metrics").body, as: UTF8.self)
        #expect(withGoal.contains(#"walletwatch_goal_month_progress_ratio{goal="House"} 0"#), "\(withGoal)")
        _ = try database.deleteGoal(named: "House")
        let withoutGoal = String(decoding: try await web.get("/metrics").body, as: UTF8.self)
        #expect(!withoutGoal.contains(#"goal="House""#), "\(withoutGoal)")
    }

    @Test("the page shows goals with bars, assets, and transactions with tags, escaped")
    func page() async throws {
        let web = try await WebFixture()
        let database = web.database
        _ = try database.createManualAsset(name: "Cash <b>", currency: .usd, now: now)
        let tx = try database.addManualTransaction(assetName: "Cash <b>", amount: "100", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        _ = try database.tagTransaction(txid: tx.transaction.txid, tags: ["<script>alert(1)</script>"], now: now)
        _ = try database.createGoal(name: "House", currency: .usd, target: 100_000, deadline: Day("2026-12-31"), now: now)
        let page = String(decoding: try await web.get("/").body, as: UTF8.self)
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains(#"<meta name="viewport""#))
        #expect(page.contains("House") && page.contains(#"class="bar""#))
        #expect(page.contains("Cash &lt;b&gt;"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !page.contains("<script>alert(1)"))
        #expect(page.contains("new EventSource('events')"))
        #expect(!page.contains("http://") && !page.contains("https://"), "no external assets")
    }

    @Test("the page shows an 18-decimal amount and a balance beyond 64 bits to the last digit, and the API prints them exactly")
    func exactAmounts() async throws {
        let web = try await WebFixture()
        let database = web.database
        _ = try database.createManualAsset(name: "Ledger ETH", currency: .eth, now: now)
        _ = try database.addManualTransaction(assetName: "Ledger ETH", amount: "12.345678901234567891", date: .at("2026-11-02T00:00:00Z"),
                                              note: nil, now: now)
        _ = try database.addManualTransaction(assetName: "Ledger ETH", amount: "-0.000000000000000001", date: .at("2026-11-03T00:00:00Z"),
                                              note: nil, now: now)
        let page = String(decoding: try await web.get("/").body, as: UTF8.self)
        #expect(page.contains("12.345678901234567891 ETH"), "the deposit, every decimal")
        #expect(page.contains("12.345678901234567890 ETH"), "the balance, every decimal")
        #expect(page.contains("-0.000000000000000001 ETH"))
        let transactions = String(decoding: try await web.get("/api/v1/transactions").body, as: UTF8.self)
        #expect(transactions.contains("12345678901234567891") && transactions.contains("-1"), "\(transactions)")
        let balances = String(decoding: try await web.get("/api/v1/balances").body, as: UTF8.self)
        #expect(balances.contains("12345678901234567890"), "\(balances)")
    }

    @Test("the page draws the portfolio's value and each goal's funded value over time as inline SVG, escaped")
    func charts() async throws {
        let web = try await WebFixture()
        let database = web.database
        _ = try database.createManualAsset(name: "Cash <b>", currency: .usd, now: now)
        _ = try database.addManualTransaction(assetName: "Cash <b>", amount: "100", date: .at("2026-11-02T00:00:00Z"), note: nil, now: now)
        _ = try database.createGoal(name: "Car & bike", currency: .usd, target: 50_000, deadline: nil, now: now)
        _ = try database.allocate(assetName: "Cash <b>", assignments: [(goal: "Car & bike", amount: "100%")], now: now)
        let page = String(decoding: try await web.get("/").body, as: UTF8.self)
        #expect(page.components(separatedBy: "<svg class=\"chart\"").count - 1 == 2, "the portfolio and one goal")
        #expect(page.contains("Portfolio value (USD)") && page.contains("Car &amp; bike (USD)") && page.contains("Cash &lt;b&gt;"))
        #expect(page.contains("<polyline") && !page.contains("<script src"))
        #expect(page.contains("funded 100.00 USD of 500.00 USD (20.0%)"))
        // Redraws reuse the figures until the ledger (or the rate history) changes.
        let computed = web.engine.reports.portfolioCache.computations
        _ = try await web.get("/fragment")
        #expect(web.engine.reports.portfolioCache.computations == computed)
        _ = try database.addManualTransaction(assetName: "Cash <b>", amount: "25", date: .at("2026-11-03T00:00:00Z"), note: nil, now: now)
        let redrawn = String(decoding: try await web.get("/fragment").body, as: UTF8.self)
        #expect(web.engine.reports.portfolioCache.computations == computed + 1)
        #expect(redrawn.contains("funded 125.00 USD of 500.00 USD (25.0%)"))
    }
}
