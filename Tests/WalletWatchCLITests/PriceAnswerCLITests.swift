import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// The price APIs' recorded answers, replayed by the simulator over HTTP to the built binary
/// (libcurl, a real database), and the answers that carry no price: mempool's `-1` for a
/// currency none of its exchange feeds priced (its price updater starts every currency at -1),
/// zero, a negative, CoinGecko's null. Such a value is never stored, from any way in (the two
/// APIs, the static config, `rates import`); the other currencies of the answer are.
///
/// Expected rates are read here from the recorded JSON text as decimals (never through a
/// binary float), and the stored ones from the database with sqlite3.
@Suite("CLI: price answers, recorded and without a price")
struct PriceAnswerCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/prices")

    static func recorded(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// Every `"KEY": number` of a JSON text, the number as written, as a decimal.
    static func numbers(in json: String) throws -> [String: Decimal] {
        let pattern = try NSRegularExpression(pattern: #""([A-Za-z_0-9]+)"\s*:\s*(-?[0-9][0-9.eE+-]*)"#)
        var result: [String: Decimal] = [:]
        for match in pattern.matches(in: json, range: NSRange(json.startIndex..., in: json)) {
            let key = String(json[Range(match.range(at: 1), in: json)!])
            let text = String(json[Range(match.range(at: 2), in: json)!])
            let value: Decimal = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), "\(text)")
            result[key] = value
        }
        return result
    }

    /// The simulator, and a folder whose config asks `provider` for `currencies` (no sources).
    final class World: @unchecked Sendable {
        let simulator: Simulator
        let folder = TemporaryDirectory("walletwatch-prices")
        var database: String { folder.file("walletwatch.sqlite") }

        init(provider: String, currencies: [String]) async throws {
            simulator = try await Simulator.start(scenario: try Scenario.load(from: DemoSetup.configFolder.appendingPathComponent("demo-scenario.json").path))
            let url = provider == "coingecko" ? simulator.coingeckoURL : simulator.mempoolURL
            folder.write("walletwatch.toml", """
                [rates]
                provider = "\(provider)"
                url = "\(url)"
                currencies = [\(currencies.map { "\"\($0)\"" }.joined(separator: ", "))]
                max_age_seconds = 300
                """)
        }

        /// The next answers of the provider's price endpoint are exactly `body`.
        func answer(_ body: String) async throws {
            await simulator.clearFaults()
            try await simulator.addFault(.recorded(body: body), at: "/coingecko/*")
            try await simulator.addFault(.recorded(body: body), at: "/mempool/*")
        }

        func cli(_ now: String = "2026-11-21T12:00:00Z") -> CLIRunner { CLIRunner(folder: folder, now: now) }

        /// `table` rows as `base|quote|rate|provider`, the rate as stored (decimal text).
        func rows(_ table: String) async throws -> [String] {
            let result = try await ProcessRunner.run("/usr/bin/sqlite3", [database, "SELECT base, quote, rate, provider FROM \(table) ORDER BY base, quote, rowid"],
                                                     environment: [:], currentDirectory: "/")
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }

        /// The stored latest rates by quote currency, as decimals.
        func stored() async throws -> [String: Decimal] {
            var result: [String: Decimal] = [:]
            for row in try await rows("exchange_rates") {
                let fields = row.split(separator: "|").map(String.init)
                result[fields[1]] = Decimal(string: fields[2], locale: Locale(identifier: "en_US_POSIX"))
            }
            return result
        }

        deinit {
            let simulator = self.simulator
            Task { await simulator.stop() }
        }
    }

    // MARK: - Recorded answers

    @Test("mempool's documented /v1/prices answer: every currency stored exactly as the JSON wrote it")
    func mempoolRecorded() async throws {
        let body = try Self.recorded("mempool-v1-prices.docs.json")
        var expected = try Self.numbers(in: body)
        expected["time"] = nil
        #expect(expected.count == 7)
        let world = try await World(provider: "mempool", currencies: expected.keys.sorted())
        try await world.answer(body)
        let result = try await world.cli().run("rates", "--refresh", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try await world.stored() == expected)
        #expect(try await world.rows("exchange_rates").allSatisfy { $0.hasPrefix("BTC|") && $0.hasSuffix("|mempool") })
        #expect(try await world.rows("rate_history").count == expected.count)
        // As printed: the same decimals.
        let printed = try #require(result.objects)
        #expect(printed.count == expected.count)
        for rate in printed {
            let quote = try #require(rate["quote"] as? String)
            #expect(rate["base"] as? String == "BTC" && rate["provider"] as? String == "mempool")
            #expect(result.stdout.contains("\"rate\": \(expected[quote]!)"), "\(quote)")
        }
    }

    @Test("CoinGecko's documented /simple/price answer, with usd_market_cap and the other extra fields: USD stored exactly, nothing else")
    func coingeckoRecorded() async throws {
        let body = try Self.recorded("coingecko-simple-price.docs.json")
        let usd = try #require(try Self.numbers(in: body)["usd"])
        let world = try await World(provider: "coingecko", currencies: ["USD"])
        try await world.answer(body)
        let result = try await world.cli().run("rates", "--refresh")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try await world.stored() == ["USD": usd])
        #expect(try await world.rows("exchange_rates") == ["BTC|USD|\(usd)|coingecko"])
    }

    /// The same recorded answer as on a falling day: `usd_24h_change` negative. It is no price
    /// (walletwatch never asks for it), so it must not fail the answer.
    @Test("CoinGecko's extra fields are not prices: a negative 24h change leaves the USD price stored")
    func coingeckoNegativeChange() async throws {
        let recorded = try Self.recorded("coingecko-simple-price.docs.json")
        let body = recorded.replacingOccurrences(of: "\"usd_24h_change\": 3.63727894677354", with: "\"usd_24h_change\": -3.63727894677354")
        #expect(body != recorded)
        let world = try await World(provider: "coingecko", currencies: ["USD"])
        try await world.answer(body)
        let result = try await world.cli().run("rates", "--refresh")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await world.stored() == ["USD": try #require(try Self.numbers(in: body)["usd"])])
    }

    /// The documented shape with several coins (hand-written, PROVENANCE.md): one request
    /// for the three coins in use, each coin's USD and EUR stored exactly as written, the
    /// negative 24h changes beside them ignored.
    @Test("CoinGecko's documented shape for several coins: each coin's prices stored exactly, under its own pair")
    func coingeckoSeveralCoins() async throws {
        let body = try Self.recorded("coingecko-simple-price-several.handwritten.json")
        let world = try await World(provider: "coingecko", currencies: ["USD", "EUR"])
        for code in ["ETH", "USDC"] {
            #expect(try await world.cli().run("asset", "add", "Held \(code)", "--currency", code).status == 0)
        }
        try await world.answer(body)
        await world.simulator.resetRequests()
        let result = try await world.cli().run("rates", "--refresh")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let requests = await world.simulator.requests(matching: "/coingecko/")
        #expect(requests.count == 1 && requests[0].query == "ids=bitcoin,ethereum,usd-coin&vs_currencies=usd,eur", "\(requests)")
        // The expected prices, read from the file's text per coin.
        var expected: [String] = []
        for (id, code) in [("bitcoin", "BTC"), ("ethereum", "ETH"), ("usd-coin", "USDC")] {
            let object = try #require(body.components(separatedBy: "\"\(id)\": {").dropFirst().first?.components(separatedBy: "}").first)
            let numbers = try Self.numbers(in: object)
            expected += ["\(code)|EUR|\(numbers["eur"]!)|coingecko", "\(code)|USD|\(numbers["usd"]!)|coingecko"]
        }
        #expect(try await world.rows("exchange_rates") == expected)
        #expect(try await world.rows("rate_history") == expected)
    }

    /// mempool's documented `historical-price` example (one point, 2017-07-13, EUR and USD), as
    /// the backfill of that day reads it.
    @Test("mempool's documented /v1/historical-price answer: the day's EUR and USD stored exactly, at 00:00 UTC")
    func mempoolHistoricalRecorded() async throws {
        let body = try Self.recorded("mempool-v1-historical-price.docs.json")
        let numbers = try Self.numbers(in: body.components(separatedBy: "\"exchangeRates\"")[0])
        let world = try await World(provider: "mempool", currencies: ["EUR", "USD"])
        try await world.answer(body)
        let result = try await world.cli("2017-07-13T18:00:00Z").run("rates", "backfill", "--since", "2017-07-13", "--json")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.object?["requests"] as? Int == 1)
        let stored = try await ProcessRunner.run("/usr/bin/sqlite3", [world.database, "SELECT base, quote, rate, fetched_at, provider FROM rate_history ORDER BY quote"],
                                                 environment: [:], currentDirectory: "/")
        #expect(stored.stdout == "BTC|EUR|\(numbers["EUR"]!)|2017-07-13T00:00:00.000Z|mempool\nBTC|USD|\(numbers["USD"]!)|2017-07-13T00:00:00.000Z|mempool\n")
    }

    /// The documented `market_chart/range` shape (hand-written, PROVENANCE.md) for ether, as a
    /// backfill of three days reads it: each day's price stored exactly, market caps and
    /// volumes ignored. (Bitcoin, always priced, is answered the same text: only ether's rows
    /// are checked.)
    @Test("CoinGecko's documented market_chart/range shape: ether's three days stored exactly as written")
    func coingeckoChartRecorded() async throws {
        let body = try Self.recorded("coingecko-market-chart-range.handwritten.json")
        let prices = body.components(separatedBy: "\"market_caps\"")[0]
        let pattern = try NSRegularExpression(pattern: #"\[(\d+), ([0-9.]+)\]"#)
        let points = pattern.matches(in: prices, range: NSRange(prices.startIndex..., in: prices)).map { match in
            (Int64(prices[Range(match.range(at: 1), in: prices)!])!, String(prices[Range(match.range(at: 2), in: prices)!]))
        }
        #expect(points.count == 3)
        let world = try await World(provider: "coingecko", currencies: ["USD"])
        let cli = world.cli("2024-01-03T12:00:00Z")
        #expect(try await cli.run("asset", "add", "Ledger ETH", "--currency", "ETH").status == 0)
        try await world.simulator.addFault(.recorded(body: body), at: "/coingecko/api/v3/coins/*")
        let result = try await cli.run("rates", "backfill", "--since", "2024-01-01", "--json")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let stored = try await ProcessRunner.run("/usr/bin/sqlite3", [world.database, "SELECT rate, fetched_at FROM rate_history WHERE base = 'ETH' ORDER BY fetched_at"],
                                                 environment: [:], currentDirectory: "/")
        #expect(stored.stdout == points.map { "\($0.1)|\(Instant(millisecondsSinceEpoch: $0.0).iso8601)\n" }.joined())
    }

    // MARK: - Answers without a price

    /// mempool's recorded answer with EUR set to a value that is no price.
    @Test("mempool: a currency answered -1, 0 or negative is left out with one warning; USD is stored", arguments: ["-1", "0", "-40545"])
    func mempoolWithoutPrice(value: String) async throws {
        let recorded = try Self.recorded("mempool-v1-prices.docs.json")
        let body = recorded.replacingOccurrences(of: "\"EUR\": 40545", with: "\"EUR\": \(value)")
        #expect(body != recorded)
        let usd = try #require(try Self.numbers(in: body)["USD"])
        let world = try await World(provider: "mempool", currencies: ["USD", "EUR"])
        try await world.answer(body)

        let result = try await world.cli().run("rates", "--refresh", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let answered = try #require(Decimal(string: value)).description
        #expect(result.stderr == "warning: the mempool provider has no BTC/EUR price (it answered \(answered)); no BTC/EUR rate was stored\n", "\(result.stderr)")
        #expect(try await world.rows("exchange_rates") == ["BTC|USD|\(usd)|mempool"])
        #expect(try await world.rows("rate_history") == ["BTC|USD|\(usd)|mempool"])
        #expect(result.objects?.compactMap { $0["quote"] as? String } == ["USD"])

        // A command that asks for rates along two paths (the plan values the BTC funding in
        // USD, the status converts the totals to EUR), each refreshing the stale ones, says it once.
        let cli = world.cli("2026-11-21T12:10:00Z")
        for arguments in [["goal", "add", "House", "--currency", "USD", "--target", "1000", "--deadline", "2027-06-30"],
                          ["asset", "add", "Stack", "--currency", "BTC"], ["tx", "add", "Stack", "0.01", "--date", "2026-11-01T00:00:00Z"],
                          ["allocate", "Stack", "House=100%"], ["settings", "set", "display_currency", "EUR"]] {
            let result = try await cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let status = try await cli.run("month", "status", "--json")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stderr.split(separator: "\n").filter { $0.contains("mempool provider has no BTC/EUR price") }.count == 1, "\(status.stderr)")
        #expect(try await world.stored().keys.sorted() == ["USD"], "still no EUR rate")
    }

    @Test("CoinGecko: a currency answered -1, 0 or null is left out with one warning; USD is stored", arguments: ["-1", "0", "null"])
    func coingeckoWithoutPrice(value: String) async throws {
        let body = #"{"bitcoin":{"usd":67187.33,"eur":\#(value)}}"#
        let world = try await World(provider: "coingecko", currencies: ["USD", "EUR"])
        try await world.answer(body)
        let result = try await world.cli().run("rates", "--refresh")
        #expect(result.status == 0, "\(result.stderr)")
        let answered = value == "null" ? "null" : try #require(Decimal(string: value)).description
        #expect(result.stderr == "warning: the coingecko provider has no BTC/EUR price (it answered \(answered)); no BTC/EUR rate was stored\n", "\(result.stderr)")
        #expect(try await world.rows("exchange_rates") == ["BTC|USD|67187.33|coingecko"])
        #expect(try await world.rows("rate_history") == ["BTC|USD|67187.33|coingecko"])
    }

    @Test("an answer with no price at all (mempool on testnet: every currency -1) stores nothing and fails naming the provider")
    func noPriceAtAll() async throws {
        let world = try await World(provider: "mempool", currencies: ["USD", "EUR"])
        try await world.answer(#"{"time":0,"USD":-1,"EUR":-1,"GBP":-1,"CAD":-1,"CHF":-1,"AUD":-1,"JPY":-1}"#)
        let result = try await world.cli().run("rates", "--refresh")
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("error: the mempool provider has no BTC/USD price") }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("warning: the mempool provider has no BTC/EUR price") }, "\(result.stderr)")
        #expect(try await world.rows("exchange_rates").isEmpty)
        #expect(try await world.rows("rate_history").isEmpty)
    }

    // MARK: - The other ways in

    @Test("the static provider refuses a rate that is not positive, naming the key; nothing is stored", arguments: ["-1", "0", "-65000.00"])
    func staticRate(value: String) async throws {
        let folder = TemporaryDirectory("walletwatch-static")
        folder.write("walletwatch.toml", """
            [rates]
            provider = "static"
            currencies = ["USD", "EUR"]
            [rates.static]
            "BTC/USD" = "65000"
            "BTC/EUR" = "\(value)"
            """)
        let result = try await CLIRunner(folder: folder).run("rates", "--refresh")
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: ") && lines[0].contains("BTC/EUR") && lines[0].contains("'\(value)' is not a positive rate"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("walletwatch.sqlite")), "the config is refused before the database is opened")
    }

    @Test("rates import refuses a rate that is not positive, naming the line; nothing of the file is stored", arguments: ["-1", "0", "-61250.50"])
    func importedRate(value: String) async throws {
        let folder = TemporaryDirectory("walletwatch-import")
        folder.write("walletwatch.toml", """
            [rates]
            provider = "static"
            currencies = ["USD"]
            [rates.static]
            "BTC/USD" = "65000"
            """)
        let file = folder.write("prices.csv", "date,base,quote,rate\n2026-10-01,BTC,USD,61250.50\n2026-10-02,BTC,EUR,\(value)\n")
        let result = try await CLIRunner(folder: folder).run("rates", "import", file)
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 3") && result.stderr.contains("rate '\(value)' is not a positive decimal number"), "\(result.stderr)")
        let history = try await ProcessRunner.run("/usr/bin/sqlite3", [folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM rate_history"],
                                                  environment: [:], currentDirectory: "/")
        #expect(history.stdout == "0\n")
    }
}
