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

    // MARK: - A missing price

    @Test("no ETH price: every view shows the figure as missing, naming ETH/USD, never as 0")
    func missingEther() async throws {
        // CoinGecko knows no ethereum here: its answer leaves the id out.
        let world = try await World(coins: [:]) { "provider = \"coingecko\"\nurl = \"\($0.coingeckoURL)\"\ncurrencies = [\"USD\"]" }
        try await world.ok("asset", "add", "Ledger ETH", "--currency", "ETH")
        try await world.ok("tx", "add", "Ledger ETH", "1.5", "--date", "2026-11-20T10:00:00Z")
        try await world.ok("goal", "add", "Stake", "--currency", "ETH", "--target", "32", "--deadline", "2027-10-31")
        try await world.ok("goal", "add", "House", "--currency", "USD", "--target", "10000")
        try await world.ok("allocate", "Ledger ETH", "House=100%")

        let refreshed = try await world.ok("rates", "--refresh")
        #expect(refreshed.stderr.contains("CoinGecko does not know the id 'ethereum' of ETH"), "\(refreshed.stderr)")
        #expect(try await world.latest() == ["BTC/USD 65000 coingecko"])

        // goal show and goal list: funded unknown, the pair named.
        let goal = try await world.ok("goal", "show", "House", "--json")
        let shown = try #require(goal.object)
        #expect(shown["funded"] is NSNull && shown["progress"] is NSNull && shown["distance"] is NSNull)
        #expect(shown["missing_rates"] as? [String] == ["ETH/USD"])
        #expect(try await world.ok("goal", "show", "House").stdout.contains("funded    no rate for ETH/USD"))
        let listLine = try #require(try await world.ok("goal", "list").stdout.split(separator: "\n").first { $0.hasPrefix("House") })
        #expect(listLine.contains("no rate for ETH/USD") && !listLine.contains(" 0.00 USD"), "\(listLine)")

        // The month: a goal of 32 ETH has no USD figure.
        let month = try #require(try await world.ok("month", "status", "--json").object)
        let stake = try #require((month["goals"] as? [[String: Any]])?.first { $0["goal"] as? String == "Stake" })
        #expect(stake["remaining_display"] is NSNull)
        #expect((month["rates"] as? [String: Any])?["missing"] as? [String] == ["ETH/USD"])
        #expect((month["total"] as? [String: Any])?["remaining_display"] is NSNull)
        let monthTable = try await world.ok("month", "status").stdout
        #expect(monthTable.contains("no rate for ETH/USD"), "\(monthTable)")

        // The report: the asset's value unknown, naming the pair.
        let report = try #require(try await world.ok("report", "--json").object)
        let line = try #require((report["assets"] as? [[String: Any]])?.first)
        #expect(line["value"] is NSNull)
        #expect((line["missing_rate"] as? [String: Any])?["pair"] as? String == "ETH/USD")
        #expect(try await world.ok("report").stdout.contains("no rate for ETH/USD"))

        // tx list: no value at its date, and the table says which rate is missing.
        let listed = try #require(try await world.ok("tx", "list", "--json").objects?.first)
        #expect(listed["value_at_date"] is NSNull && listed["value_currency"] as? String == "USD" && listed["currency"] as? String == "ETH")
        #expect(try await world.ok("tx", "list").stdout.contains("no rate for ETH/USD"))

        // The page.
        let portFile = world.folder.file("web.port")
        let server = try BackgroundProcess(world.cli().binary, ["serve", "--listen", "127.0.0.1:0", "--port-file", portFile],
                                           environment: world.cli().environment, currentDirectory: world.folder.path)
        var port = 0
        #expect(await eventually(within: .seconds(30)) {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return port > 0
        }, "serve did not start: \(server.stderr)")
        let page = try await ProcessRunner.run("/usr/bin/curl", ["-s", "--max-time", "30", "http://127.0.0.1:\(port)/"],
                                               environment: [:], currentDirectory: "/").stdout
        #expect(page.contains("<span class=\"warn\">no rate for ETH/USD</span>"), "the goal's remaining in USD: \(page.prefix(4000))")
        #expect(page.contains("no rate for ETH/USD</td>") || page.contains(">no rate for ETH/USD<"), "the transaction's value then")
        server.send(SIGTERM)
        #expect(await server.exitStatus(within: .seconds(30)) == 0, "\(server.stderr)")
    }

    // MARK: - A unit priced by hand

    @Test("rates set: a unit without a CoinGecko id, priced by hand, funds a goal in USD; past prices value past dates")
    func handPriced() async throws {
        let world = try await World { "provider = \"coingecko\"\nurl = \"\($0.coingeckoURL)\"\ncurrencies = [\"USD\"]" }
        try await world.ok("currency", "add", "GOLD", "--decimals", "3", "--name", "Gold, grams")
        try await world.ok("asset", "add", "Vault", "--currency", "GOLD")
        try await world.ok("tx", "add", "Vault", "10.5", "--date", "2026-11-01T10:00:00Z")
        try await world.ok("goal", "add", "Bullion", "--currency", "USD", "--target", "2000")
        try await world.ok("allocate", "Vault", "Bullion=100%")
        await world.simulator.resetRequests()

        // No price yet: the figure is missing and the warning says how to set one; no provider is asked for GOLD.
        let before = try await world.ok("goal", "show", "Bullion", "--json")
        #expect(before.object?["funded"] is NSNull && before.object?["missing_rates"] as? [String] == ["GOLD/USD"])
        #expect(before.stderr.contains("GOLD has no CoinGecko id") && before.stderr.contains("walletwatch rates set GOLD USD PRICE"), "\(before.stderr)")
        #expect(await world.simulator.requests().allSatisfy { !($0.query ?? "").lowercased().contains("gold") })
        #expect(try await Self.ratesCheck(world) == (false, true), "doctor: GOLD in use without an id and without a price")

        let set = try await world.ok("rates", "set", "GOLD", "USD", "75.20", "--json")
        let stored = try #require(set.object)
        #expect(stored["base"] as? String == "GOLD" && stored["quote"] as? String == "USD" && stored["provider"] as? String == "manual")
        #expect(set.stdout.contains("\"rate\": 75.2") && stored["fetched_at"] as? String == "2026-11-21T12:00:00.000Z")
        #expect(stored["latest"] as? Bool == true && stored["replaced"] as? Bool == false && stored["stale"] as? Bool == false)

        // 10.500 g at 75.20 USD/g = 789.60 USD.
        let cents = Self.halfEven(10_500 * 7_520, 1_000)
        #expect(cents == 78_960)
        #expect(try await Self.ratesCheck(world) == (true, true), "doctor: priced by hand")
        let after = try #require(try await world.ok("goal", "show", "Bullion", "--json").object)
        #expect(after["funded"] as? Int == Int(cents), "\(after)")
        // In EUR through BTC: GOLD/USD by hand, BTC/USD and BTC/EUR from the provider.
        let report = try #require(try await world.ok("report", "--currency", "EUR", "--json").object)
        let value = try #require((report["assets"] as? [[String: Any]])?.first?["value"] as? Int)
        #expect(value == Int(Self.halfEven(10_500 * 7_520 * 60_000, 1_000 * 65_000)))

        // A price of a past day: the day's value of the deposit; the later price stays the latest.
        let past = try await world.ok("rates", "set", "GOLD", "USD", "70", "--at", "2026-11-01")
        #expect(past.stdout.contains("a newer GOLD/USD rate is stored"), "\(past.stdout)")
        let listed = try #require(try await world.ok("tx", "list", "--json").objects?.first)
        #expect(listed["value_at_date"] as? Int == 73_500, "10.5 g at 70.00 USD")
        #expect(try await world.latest().contains("GOLD/USD 75.2 manual"))
        let again = try #require(try await world.ok("rates", "set", "GOLD", "USD", "71", "--at", "2026-11-01", "--json").object)
        #expect(again["replaced"] as? Bool == true)
        #expect(try await sqlite(world.database, "SELECT COUNT(*) FROM rate_history WHERE base = 'GOLD'") == "2")

        // Refusals: one line each, nothing stored.
        let refusals: [([String], Int32, String)] = [
            (["rates", "set", "GOLD", "USD", "75", "--at", "2026-11-22"], 65, "--at 2026-11-22 is in the future"),
            (["rates", "set", "GOLD", "USD", "--", "-3"], 64, "price '-3' is not a positive decimal number"),
            (["rates", "set", "GOLD", "USD", "0"], 64, "price '0' is not a positive decimal number"),
            (["rates", "set", "SILVER", "USD", "1"], 64, "unknown currency 'SILVER'"),
            (["rates", "set", "GOLD", "gold", "1"], 64, "a price is of one currency in another"),
            (["rates", "set", "GOLD", "USD", "1", "--at", "soon"], 64, "--at 'soon' is not a time"),
        ]
        for (arguments, status, message) in refusals {
            let result = try await world.cli().run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message) && result.stderr.split(separator: "\n").count == 1,
                    "\(arguments): \(result.stderr)")
        }
        #expect(try await sqlite(world.database, "SELECT COUNT(*) FROM rate_history WHERE base = 'GOLD'") == "2")
    }

    /// doctor's rates check: whether it passed, and whether its detail names GOLD as it should
    /// (without a price: the way to set one; with one: priced by hand).
    static func ratesCheck(_ world: World) async throws -> (ok: Bool, named: Bool) {
        let doctor = try #require(try await world.cli().run("doctor", "--json").object)
        let check = try #require((doctor["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "rates" })
        let ok = check["ok"] as? Bool ?? false, detail = check["detail"] as? String ?? ""
        return (ok, ok ? detail.contains("priced by hand: GOLD")
                       : detail.contains("GOLD in use without a CoinGecko id and without a price; set one with `walletwatch rates set GOLD USD PRICE`"))
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

    // MARK: - Saving plans in another currency

    @Test("an automatic plan of 100 USD a month into ETH books amount / price at each date in wei, half to even once; a date without any rate waits")
    func automaticPlanIntoEther() async throws {
        let world = try await World { _ in "provider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"65000\"" }
        world.folder.write("eth.csv", "date,base,quote,rate\n2026-09-01,ETH,USD,3000\n2026-10-01,ETH,USD,3355.4432\n")
        try await world.ok("rates", "import", "eth.csv")
        try await world.ok("asset", "add", "Ether", "--currency", "ETH")
        try await world.ok("goal", "add", "Stake", "--currency", "ETH", "--target", "32")
        try await world.ok("saving-plan", "add", "Monthly", "--goal", "Stake", "--asset", "Ether", "--amount", "100", "--currency", "USD",
                           "--method", "automatic", "--start", "2026-09-01")
        try await world.ok("saving-plan", "add", "Euros", "--goal", "Stake", "--asset", "Ether", "--amount", "50", "--currency", "EUR",
                           "--method", "automatic", "--start", "2026-11-01")
        let listed = try await world.ok("saving-plan", "list", "--json")
        // 100 USD at 3000 USD/ETH = 0.0333... ETH; at 3355.4432 exactly 29802322387695312.5 wei, to the even wei;
        // on 2026-11-01 the latest price before it (2026-10-01's).
        let september = Self.halfEven(10_000 * 10_000_000_000_000_000, 3_000)
        let october = Self.halfEven(10_000 * 10_000_000_000_000_000 * 10_000, 33_554_432)
        #expect(september == 33_333_333_333_333_333 && october == 29_802_322_387_695_312)
        let amounts = try await sqlite(world.database, "SELECT amount FROM transactions ORDER BY date").split(separator: "\n").map(String.init)
        #expect(amounts == ["\(september)", "\(october)", "\(october)"], "\(amounts)")
        // The plan in EUR: no EUR rate reaches ETH (only BTC/USD and ETH/USD are known), so nothing is booked yet.
        #expect(listed.stderr.contains("saving plan 'Euros' due 2026-11-01 is not recorded yet: no ETH/EUR rate"), "\(listed.stderr)")

        // A EUR price from the user: the waiting date is booked, at 50 EUR / 2800 EUR per ETH.
        try await world.ok("rates", "set", "ETH", "EUR", "2800", "--at", "2026-11-01")
        let caughtUp = try await world.ok("saving-plan", "list", "--json")
        #expect(!caughtUp.stderr.contains("not recorded yet"), "\(caughtUp.stderr)")
        let euros = try await sqlite(world.database, "SELECT amount FROM transactions WHERE note LIKE '%Euros%'")
        #expect(euros == "\(Self.halfEven(5_000 * 10_000_000_000_000_000, 2_800))")
    }

    @Test("a reminder in USD or EUR fulfilled by an ETH deposit valued at its date, through the pair or a cross")
    func reminderInAnotherCurrency() async throws {
        let world = try await World { _ in "provider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"65000\"\n\"BTC/EUR\" = \"60000\"" }
        world.folder.write("eth.csv", "date,base,quote,rate\n2026-11-02,ETH,USD,3000\n2026-11-01,BTC,USD,65000\n2026-11-01,BTC,EUR,60000\n")
        try await world.ok("rates", "import", "eth.csv")
        try await world.ok("asset", "add", "Ether", "--currency", "ETH")
        try await world.ok("goal", "add", "Stake", "--currency", "ETH", "--target", "32")
        // The deposits first: a reminder whose 7 days are over is decided when the plan is added.
        try await world.ok("tx", "add", "Ether", "0.04", "--date", "2026-11-02T10:00:00Z")
        try await world.ok("tx", "add", "Ether", "0.04", "--date", "2026-11-02T11:00:00Z")
        try await world.ok("saving-plan", "add", "Dollars", "--goal", "Stake", "--asset", "Ether", "--amount", "100", "--currency", "USD",
                           "--start", "2026-11-02")
        try await world.ok("saving-plan", "add", "Euros", "--goal", "Stake", "--asset", "Ether", "--amount", "100", "--currency", "EUR",
                           "--start", "2026-11-02")
        let plans = try #require(try await world.ok("saving-plan", "list", "--json").objects)
        #expect(plans.allSatisfy { ($0["last"] as? [String: Any])?["status"] as? String == "fulfilled" }, "\(plans)")
        // 0.04 ETH at 3000 USD = 120.00 USD; in EUR through BTC: 120 x 60000 / 65000 EUR.
        let claims = try await sqlite(world.database, """
            SELECT p.name || ' ' || c.value FROM saving_plan_claims c JOIN saving_plans p ON p.id = c.plan_id ORDER BY p.name
            """).split(separator: "\n").map(String.init)
        #expect(claims == ["Dollars 12000", "Euros \(Self.halfEven(4 * 3_000 * 60_000, 65_000))"], "\(claims)")
    }
}
