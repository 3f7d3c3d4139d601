import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// SPEC.md section 25's prices for every currency, run as a user runs them: the built binary,
/// libcurl, a real SQLite file, the simulator's CoinGecko and mempool faces over HTTP. Every
/// expected figure is computed here by hand in integers from the prices the test sets.
@Suite("CLI: prices for every currency")
struct CoinPricesCLITests {
    /// `numerator / denominator` rounded half to even, by hand (denominator > 0).
    static func halfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        let quotient = numerator / denominator, remainder = numerator % denominator
        let twice = 2 * (remainder < 0 ? -remainder : remainder)
        if twice < denominator { return quotient }
        let away = quotient + (numerator < 0 ? -1 : 1)
        if twice > denominator { return away }
        return quotient % 2 == 0 ? quotient : away
    }

    /// A simulator serving BTC at 65,000 USD / 60,000 EUR and the `coins` given, and a folder whose
    /// config names `provider` (its `[rates]` lines as given).
    final class World: @unchecked Sendable {
        let simulator: Simulator
        let folder = TemporaryDirectory("walletwatch-coins")
        let now: String
        var database: String { folder.file("walletwatch.sqlite") }

        init(coins: [String: [String: Decimal]] = ["ethereum": ["USD": 3_000, "EUR": 2_770], "usd-coin": ["USD": 1, "EUR": Decimal(string: "0.92")!]],
             now: String = "2026-11-21T12:00:00Z", rates: (Simulator) -> String) async throws {
            self.now = now
            simulator = try await Simulator.start(scenario: Scenario(now: SimTime(iso8601: now)!,
                                                                     prices: PriceTable(["USD": 65_000, "EUR": 60_000], coins: coins)))
            folder.write("walletwatch.toml", "[rates]\n" + rates(simulator) + "\n[http]\nretries = 1\n")
        }

        func cli(_ now: String? = nil) -> CLIRunner { CLIRunner(folder: folder, now: now ?? self.now) }

        /// Runs a command that must succeed.
        @discardableResult
        func ok(_ arguments: String..., now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> CommandResult {
            let result = try await cli(now).run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            return result
        }

        /// The stored latest rates as `BASE/QUOTE rate provider`, sorted.
        func latest() async throws -> [String] {
            try await sqlite(database, "SELECT base || '/' || quote || ' ' || rate || ' ' || provider FROM exchange_rates ORDER BY base, quote")
                .split(separator: "\n").map(String.init)
        }

        deinit {
            let simulator = self.simulator
            Task { await simulator.stop() }
        }
    }

    // MARK: - One request for every coin

    @Test("coingecko: every coin held or saved towards in one simple/price request, against the display and the goals' money")
    func oneRequest() async throws {
        let world = try await World { "provider = \"coingecko\"\nurl = \"\($0.coingeckoURL)\"\ncurrencies = [\"USD\"]" }
        try await world.ok("asset", "add", "Ledger ETH", "--currency", "ETH")
        try await world.ok("asset", "add", "Stable", "--currency", "USDC")
        try await world.ok("asset", "add", "Stack", "--currency", "BTC")
        try await world.ok("goal", "add", "Trip", "--currency", "EUR", "--target", "1000")
        await world.simulator.resetRequests()

        let result = try await world.ok("rates", "--refresh", "--json")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let requests = await world.simulator.requests(matching: "/coingecko/")
        #expect(requests.map(\.path) == ["/coingecko/api/v3/simple/price"], "one request for every coin")
        #expect(requests.first?.query == "ids=bitcoin,ethereum,usd-coin&vs_currencies=usd,eur")
        #expect(try await world.latest() == ["BTC/EUR 60000 coingecko", "BTC/USD 65000 coingecko", "ETH/EUR 2770 coingecko",
                                              "ETH/USD 3000 coingecko", "USDC/EUR 0.92 coingecko", "USDC/USD 1 coingecko"])
        #expect(result.objects?.count == 6, "rates lists every pair")
        // Fresh: the next command that needs them asks nothing.
        await world.simulator.resetRequests()
        try await world.ok("rates")
        #expect(await world.simulator.requests().isEmpty)
    }

    // MARK: - Cross rates

    @Test("a goal in EUR funded by ETH from ETH/USD, BTC/USD and BTC/EUR alone: a cross through two currencies")
    func crossThroughTwo() async throws {
        let world = try await World { _ in """
            provider = "static"
            currencies = ["USD"]
            [rates.static]
            "ETH/USD" = "3000"
            "BTC/USD" = "65000"
            "BTC/EUR" = "60000"
            """ }
        try await world.ok("asset", "add", "Ledger ETH", "--currency", "ETH")
        try await world.ok("tx", "add", "Ledger ETH", "0.5", "--date", "2026-11-01T10:00:00Z")
        try await world.ok("goal", "add", "Trip", "--currency", "EUR", "--target", "2000")
        try await world.ok("allocate", "Ledger ETH", "Trip=100%")
        let shown = try #require(try await world.ok("goal", "show", "Trip", "--json").object)
        // 0.5 ETH = 1500 USD = 1500/65000 BTC = 1500 x 60000 / 65000 EUR, in cents.
        let cents = Self.halfEven(50 * 3_000 * 60_000, 65_000)
        #expect(cents == 138_462)
        #expect(shown["funded"] as? Int == Int(cents), "\(shown)")
        #expect((shown["missing_rates"] as? [Any])?.isEmpty == true)
    }

    // MARK: - mempool for BTC, CoinGecko for the rest

    @Test("mempool prices BTC; ETH still gets prices, from CoinGecko at coingecko_url; one failing part leaves the other")
    func mempoolAndCoinGecko() async throws {
        let world = try await World { """
            provider = "mempool"
            url = "\($0.mempoolURL)"
            coingecko_url = "\($0.coingeckoURL)"
            currencies = ["USD", "EUR"]
            """ }
        try await world.ok("asset", "add", "Ledger ETH", "--currency", "ETH")
        await world.simulator.resetRequests()
        let result = try await world.ok("rates", "--refresh")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try await world.latest() == ["BTC/EUR 60000 mempool", "BTC/USD 65000 mempool", "ETH/EUR 2770 coingecko", "ETH/USD 3000 coingecko"])
        let requests = await world.simulator.requests()
        #expect(requests.map(\.path).sorted() == ["/coingecko/api/v3/simple/price", "/mempool/api/v1/prices"])
        #expect(requests.first { $0.path.hasPrefix("/coingecko") }?.query == "ids=ethereum&vs_currencies=usd,eur", "BTC is not asked of CoinGecko")

        let doctor = try #require(try await world.cli().run("doctor", "--json").object)
        let check = try #require((doctor["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "rates" })
        #expect(check["ok"] as? Bool == true && (check["detail"] as? String)?.contains("other coins: CoinGecko at") == true, "\(check)")

        // CoinGecko down: BTC's prices are still stored, and the warning names what failed.
        try await world.simulator.addFault(.status(503), at: "/coingecko/*")
        let later = try await world.ok("rates", "--refresh", now: "2026-11-21T12:10:00Z")
        #expect(later.stderr.contains("ETH prices from CoinGecko ([rates] coingecko_url) could not be fetched") && later.stderr.contains("503"),
                "\(later.stderr)")
        #expect(try await sqlite(world.database, "SELECT fetched_at FROM exchange_rates WHERE base = 'BTC' AND quote = 'USD'") == "2026-11-21T12:10:00.000Z")
        #expect(try await sqlite(world.database, "SELECT fetched_at FROM exchange_rates WHERE base = 'ETH' AND quote = 'USD'") == "2026-11-21T12:00:00.000Z")
    }

    // MARK: - Daily history of several coins

    @Test("coingecko: backfill of two coins, one market_chart/range request per coin, each series as the simulator defines it")
    func backfillTwoCoins() async throws {
        let world = try await World { "provider = \"coingecko\"\nurl = \"\($0.coingeckoURL)\"\ncurrencies = [\"USD\"]" }
        try await world.ok("asset", "add", "Stack", "--currency", "BTC")
        try await world.ok("asset", "add", "Ledger ETH", "--currency", "ETH")
        let result = try await world.ok("rates", "backfill", "--since", "2026-11-01", "--json")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let report = try #require(result.object)
        #expect(report["requests"] as? Int == 2)
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        #expect(pairs.map { "\($0["base"]!)/\($0["quote"]!) \($0["provider"]!) \($0["days_added"]!)" } == ["BTC/USD coingecko 21", "ETH/USD coingecko 21"])
        let paths = await world.simulator.requests(matching: "/coingecko/api/v3/coins/").map(\.path)
        #expect(paths == ["/coingecko/api/v3/coins/bitcoin/market_chart/range", "/coingecko/api/v3/coins/ethereum/market_chart/range"])
        let days = BackfillCLITests.days("2026-11-01", "2026-11-21")
        BackfillCLITests.expectSeries(try await daily(world, "BTC"), days, cents: 6_500_000, provider: "coingecko")
        BackfillCLITests.expectSeries(try await daily(world, "ETH"), days, cents: 300_000, provider: "coingecko")
        let again = try await world.ok("rates", "backfill", "--since", "2026-11-01", "--json")
        #expect(again.object?["requests"] as? Int == 0)
    }

    @Test("mempool: BTC's whole span from mempool, ETH's from CoinGecko with its 365 days; the older ETH days named with rates import")
    func backfillUnderMempool() async throws {
        let world = try await World { """
            provider = "mempool"
            url = "\($0.mempoolURL)"
            coingecko_url = "\($0.coingeckoURL)"
            currencies = ["USD"]
            """ }
        try await world.ok("asset", "add", "Ledger ETH", "--currency", "ETH")
        try await world.ok("tx", "add", "Ledger ETH", "2", "--date", "2025-10-01T10:00:00Z")
        let result = try await world.cli().run("rates", "backfill", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(result.object)
        #expect(report["provider"] as? String == "mempool" && report["requests"] as? Int == 2)
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        #expect(pairs.map { "\($0["base"]!)/\($0["quote"]!) \($0["provider"]!) \($0["days_added"]!) \($0["days_missing"]!)" }
                == ["BTC/USD mempool 417 0", "ETH/USD coingecko 365 52"])
        let gap = try #require((report["unavailable"] as? [[String: Any]])?.first)
        #expect(gap["base"] as? String == "ETH" && gap["first"] as? String == "2025-10-01" && gap["last"] as? String == "2025-11-21" && gap["days"] as? Int == 52)
        #expect(result.stderr.contains("coingecko's public API answers only the past 365 days: ETH/USD has no daily price for 52 day(s)")
                && result.stderr.contains("walletwatch rates import FILE"), "\(result.stderr)")
        let requests = await world.simulator.requests().filter { $0.path.hasSuffix("historical-price") || $0.path.hasSuffix("market_chart/range") }
        #expect(requests.map(\.path) == ["/coingecko/api/v3/coins/ethereum/market_chart/range", "/mempool/api/v1/historical-price"])
        BackfillCLITests.expectSeries(try await daily(world, "ETH"), BackfillCLITests.days("2025-11-22", "2026-11-21"), cents: 300_000, provider: "coingecko")
        #expect(try await daily(world, "BTC").count == 417)
    }

    /// The daily prices stored for `base`/USD, by day.
    func daily(_ world: World, _ base: String) async throws -> [Day: (rate: Decimal, provider: String)] {
        let text = try await sqlite(world.database, """
            SELECT substr(fetched_at, 1, 10), rate, provider FROM rate_history
            WHERE base = '\(base)' AND quote = 'USD' AND substr(fetched_at, 11) = 'T00:00:00.000Z' ORDER BY fetched_at
            """)
        var result: [Day: (Decimal, String)] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "|").map(String.init)
            result[Day(fields[0])!] = (Decimal(string: fields[1], locale: Locale(identifier: "en_US_POSIX"))!, fields[2])
        }
        return result
    }
}
