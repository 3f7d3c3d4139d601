import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// `walletwatch rates backfill` run as a user runs it: the built binary, libcurl, a real SQLite
/// file, the simulator's history endpoints over HTTP. Every stored price is checked against the
/// series computed by hand (``PriceSeriesByHand``).
@Suite("CLI: rates backfill")
struct BackfillCLITests {
    static let usd: Int64 = 6_500_000, eur: Int64 = 6_000_000

    static func days(_ first: String, _ last: String) -> [Day] {
        (Day(first)!.daysSinceEpoch...Day(last)!.daysSinceEpoch).map(Day.init(daysSinceEpoch:))
    }

    /// Every day of `days` stored for `quote` with the series' price and `provider`.
    static func expectSeries(_ stored: [Day: (rate: Decimal, provider: String)], _ days: [Day], cents: Int64, provider: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Set(stored.keys) == Set(days), sourceLocation: sourceLocation)
        for day in days {
            let expected = PriceSeriesByHand.decimal(cents: PriceSeriesByHand.cents(cents, on: day))
            #expect(stored[day]?.rate == expected, "\(day)", sourceLocation: sourceLocation)
            #expect(stored[day]?.provider == provider, sourceLocation: sourceLocation)
        }
    }

    @Test("coingecko: one request per currency, one price per UTC day as the series says; a second run asks for nothing")
    func coingeckoBackfillAndRepeat() async throws {
        let world = try await BackfillWorld(provider: "coingecko")
        let first = try await world.cli().run("rates", "backfill", "--since", "2026-06-01", "--json")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        let report = try #require(first.object)
        #expect(report["provider"] as? String == "coingecko")
        #expect(report["requests"] as? Int == 2)
        #expect(report["skipped_points"] as? Int == 0)
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        #expect(pairs.map { "\($0["base"]!)/\($0["quote"]!) \($0["days_added"]!) \($0["first"]!) \($0["last"]!)" }
                == ["BTC/USD 174 2026-06-01 2026-11-21", "BTC/EUR 174 2026-06-01 2026-11-21"])
        let days = Self.days("2026-06-01", "2026-11-21")
        Self.expectSeries(try await world.daily("USD"), days, cents: Self.usd, provider: "coingecko")
        Self.expectSeries(try await world.daily("EUR"), days, cents: Self.eur, provider: "coingecko")
        // Ranges over 90 days are answered daily: the request names the span asked for.
        let requests = await world.historyRequests()
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.query?.contains("from=\(Day("2026-06-01")!.startInstant.millisecondsSinceEpoch / 1000)") == true })

        let rows = try await world.historyCount()
        let second = try await world.cli().run("rates", "backfill", "--since", "2026-06-01", "--json")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.object?["requests"] as? Int == 0)
        #expect((second.object?["pairs"] as? [[String: Any]])?.allSatisfy { $0["days_added"] as? Int == 0 && $0["first"] is NSNull } == true)
        #expect(await world.historyRequests().count == 2, "the second run asked the provider")
        #expect(try await world.historyCount() == rows)

        // Three more days at the front: one short range per currency, answered hourly; the
        // stored price is the day's first point (00:00 UTC), not a later hour's.
        let third = try await world.cli().run("rates", "backfill", "--since", "2026-05-29", "--json")
        #expect(third.object?["requests"] as? Int == 2, "\(third.stderr)")
        let front = Self.days("2026-05-29", "2026-05-31")
        let usd = try await world.daily("USD")
        Self.expectSeries(usd.filter { front.contains($0.key) }, front, cents: Self.usd, provider: "coingecko")
        #expect(try await world.historyCount() == rows + 6)
    }

    @Test("coingecko: days before the public API's 365 days are not asked for; the report names them and `rates import`")
    func coingeckoReach() async throws {
        let world = try await BackfillWorld(provider: "coingecko", currencies: ["USD"])
        let result = try await world.cli().run("rates", "backfill", "--since", "2025-01-01", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(result.object)
        #expect(report["requests"] as? Int == 1)
        let gap = try #require((report["unavailable"] as? [[String: Any]])?.first)
        // 365 days back from 2026-11-21 inclusive starts on 2025-11-22.
        #expect(gap["first"] as? String == "2025-01-01" && gap["last"] as? String == "2025-11-21" && gap["days"] as? Int == 325)
        let pair = try #require((report["pairs"] as? [[String: Any]])?.first)
        #expect(pair["days_added"] as? Int == 365 && pair["first"] as? String == "2025-11-22" && pair["days_missing"] as? Int == 325)
        #expect(result.stderr.contains("warning:") && result.stderr.contains("walletwatch rates import FILE") && result.stderr.contains("325 day(s)"))
        Self.expectSeries(try await world.daily("USD"), Self.days("2025-11-22", "2026-11-21"), cents: Self.usd, provider: "coingecko")
        #expect(await world.historyRequests().allSatisfy { $0.fault == nil }, "the simulator refused a range beyond 365 days")

        // The gap filled by a file: the next backfill has nothing left to ask.
        var csv = "date,base,quote,rate\n"
        for day in Self.days("2025-01-01", "2025-11-21") { csv += "\(day),BTC,USD,50000\n" }
        world.folder.write("old.csv", csv)
        #expect(try await world.cli().run("rates", "import", "old.csv").status == 0)
        let again = try await world.cli().run("rates", "backfill", "--since", "2025-01-01", "--json")
        #expect(again.object?["requests"] as? Int == 0 && (again.object?["unavailable"] as? [Any])?.isEmpty == true, "\(again.stdout)")
    }

    @Test("mempool: one request brings EUR and USD; the ledger's span (first transaction to today) without --since")
    func mempoolLedgerSpan() async throws {
        let world = try await BackfillWorld(provider: "mempool")
        let cli = world.cli()
        #expect(try await cli.run("asset", "add", "Stack", "--currency", "BTC").status == 0)
        #expect(try await cli.run("tx", "add", "Stack", "0.015", "--date", "2021-12-01T10:00:00Z").status == 0)
        let result = try await cli.run("rates", "backfill", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.object?["requests"] as? Int == 1)
        let requests = await world.historyRequests()
        #expect(requests.map(\.query) == ["currency=EUR"])
        let days = Self.days("2021-12-01", "2026-11-21")
        Self.expectSeries(try await world.daily("EUR"), days, cents: Self.eur, provider: "mempool")
        Self.expectSeries(try await world.daily("USD"), days, cents: Self.usd, provider: "mempool")
        let again = try await cli.run("rates", "backfill", "--json")
        #expect(again.object?["requests"] as? Int == 0)
        #expect(await world.historyRequests().count == 1)
    }

    @Test("tx list and tx show: value_at_date in the display currency at each date, null before prices exist; a VALUE column")
    func valueAtDate() async throws {
        let world = try await BackfillWorld(provider: "mempool")
        let cli = world.cli()
        #expect(try await cli.run("asset", "add", "Stack", "--currency", "BTC").status == 0)
        let deposits: [(String, String, Int64)] = [("0.015", "2026-10-01T10:00:00Z", 1_500_000), ("0.00123457", "2026-11-03T23:59:00Z", 123_457),
                                                   ("-0.005", "2026-11-10T08:00:00Z", -500_000)]
        for (amount, date, _) in deposits {
            #expect(try await cli.run(["tx", "add", "Stack", "--date", date, "--", amount]).status == 0)
        }
        let before = try #require(try await cli.run("tx", "list", "--json").objects)
        #expect(before.count == 3 && before.allSatisfy { $0["value_at_date"] is NSNull && $0["value_currency"] as? String == "USD" })

        #expect(try await cli.run("rates", "backfill").status == 0)
        let listed = try #require(try await cli.run("tx", "list", "--json").objects)
        for (_, date, sats) in deposits {
            let row = try #require(listed.first { $0["date"] as? String == Instant(iso8601: date)!.iso8601 })
            let price = PriceSeriesByHand.cents(Self.usd, on: Instant(iso8601: date)!.day)
            #expect(row["value_at_date"] as? Int == Int(PriceSeriesByHand.value(sats: sats, cents: price)), "\(date)")
            #expect(row["amount"] as? Int == Int(sats))
            let txid = try #require(row["txid"] as? String)
            let shown = try #require(try await cli.run("tx", "show", txid, "--json").object)
            #expect(shown["value_at_date"] as? Int == row["value_at_date"] as? Int && shown["value_currency"] as? String == "USD")
        }
        // Signed like the amount.
        #expect(listed.contains { ($0["value_at_date"] as? Int ?? 0) < 0 && ($0["amount"] as? Int ?? 0) < 0 })
        let table = try await cli.run("tx", "list")
        let withdrawal = PriceSeriesByHand.value(sats: -500_000, cents: PriceSeriesByHand.cents(Self.usd, on: Day("2026-11-10")!))
        #expect(table.stdout.contains("VALUE"))
        #expect(table.stdout.contains(String(format: "-%lld.%02lld USD", -withdrawal / 100, -withdrawal % 100)), "\(table.stdout)")

        // In another display currency: EUR at the same dates.
        #expect(try await cli.run("settings", "set", "display_currency", "EUR").status == 0)
        let inEUR = try #require(try await cli.run("tx", "list", "--json").objects)
        for row in inEUR {
            let day = Instant(iso8601: row["date"] as! String)!.day
            let sats = Int64(row["amount"] as! Int)
            #expect(row["value_currency"] as? String == "EUR")
            #expect(row["value_at_date"] as? Int == Int(PriceSeriesByHand.value(sats: sats, cents: PriceSeriesByHand.cents(Self.eur, on: day))))
        }
    }

    @Test("a day without a price values its transactions as null, not at an older day's price")
    func noPriceThatDay() async throws {
        let world = try await BackfillWorld(provider: "static", currencies: ["USD"])
        let cli = world.cli()
        world.folder.write("prices.csv", "date,base,quote,rate\n2026-10-01,BTC,USD,60000.00\n")
        #expect(try await cli.run("rates", "import", world.folder.file("prices.csv")).status == 0)
        #expect(try await cli.run("asset", "add", "Stack", "--currency", "BTC").status == 0)
        for date in ["2026-10-01T18:00:00Z", "2026-10-04T09:00:00Z"] {
            #expect(try await cli.run(["tx", "add", "Stack", "--date", date, "--", "0.01"]).status == 0)
        }
        let rows = try #require(try await cli.run("tx", "list", "--json").objects)
        let byDay = Dictionary(uniqueKeysWithValues: rows.map { (String(($0["date"] as! String).prefix(10)), $0["value_at_date"]) })
        #expect(byDay["2026-10-01"] as? Int == 60_000, "0.01 BTC at 60,000.00 USD is 600.00 USD")
        #expect(byDay["2026-10-04"] is NSNull, "no price on 2026-10-04: \(String(describing: byDay["2026-10-04"]))")
    }

    @Test("the static provider has no history: refused (exit 65) naming it and rates import")
    func staticRefused() async throws {
        let world = try await BackfillWorld(provider: "static", currencies: ["USD"])
        let result = try await world.cli().run("rates", "backfill")
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains("static") && result.stderr.contains("rates import"), "\(result.stderr)")
        let usage = try await world.cli().run("rates", "backfill", "--since", "yesterday")
        #expect(usage.status == 64 && usage.stderr.contains("--since"), "\(usage.stderr)")
    }

    @Test("429 with Retry-After: retried after the pause it asks for, then the answer is stored")
    func rateLimited() async throws {
        let world = try await BackfillWorld(provider: "coingecko", currencies: ["USD"])
        try await world.simulator.addFault(.rateLimited(retryAfter: 1), at: "/coingecko/api/v3/coins/bitcoin/market_chart/range", times: 1)
        let result = try await world.cli().run("rates", "backfill", "--since", "2026-11-01", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.object?["requests"] as? Int == 1)
        let attempts = await world.historyRequests()
        #expect(attempts.map(\.fault) == ["status 429", nil])
        #expect(attempts[1].time.milliseconds - attempts[0].time.milliseconds >= 1000, "the retry did not wait for Retry-After")
        Self.expectSeries(try await world.daily("USD"), Self.days("2026-11-01", "2026-11-21"), cents: Self.usd, provider: "coingecko")
    }

    @Test("429 on every attempt: exit 1 naming the status, nothing stored; the next run fills everything")
    func rateLimitedThrough() async throws {
        let world = try await BackfillWorld(provider: "coingecko", currencies: ["USD"])
        try await world.simulator.addFault(.rateLimited(retryAfter: 1), at: "/coingecko/api/v3/coins/bitcoin/market_chart/range")
        let result = try await world.cli().run("rates", "backfill", "--since", "2026-11-01")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains("HTTP 429") && result.stderr.contains("days still missing"), "\(result.stderr)")
        #expect(await world.historyRequests().count == 3, "retries = 2: three attempts")
        #expect(try await world.historyCount() == 0)
        await world.simulator.clearFaults()
        #expect(try await world.cli().run("rates", "backfill", "--since", "2026-11-01").status == 0)
        Self.expectSeries(try await world.daily("USD"), Self.days("2026-11-01", "2026-11-21"), cents: Self.usd, provider: "coingecko")
    }

    @Test("a progress bar on stderr in a terminal (days done of days wanted), none with --json or into a pipe")
    func progressBar() async throws {
        let world = try await BackfillWorld(provider: "coingecko")
        let cli = world.cli()
        // A pseudo-terminal from util-linux's script(1): the command's stderr is a terminal.
        func inTerminal(_ command: String) async throws -> CommandResult {
            try await ProcessRunner.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: cli.environment,
                                        currentDirectory: cli.folder)
        }
        let bar = try await inTerminal("\(cli.binary) rates backfill --since 2026-11-12")
        #expect(bar.status == 0, "\(bar.stdout)")
        #expect(bar.stdout.contains("[" + String(repeating: "#", count: 30) + "] 20/20 days"), "\(bar.stdout)")
        #expect(bar.stdout.contains("] 0/20 days") && bar.stdout.contains("] 10/20 days"), "\(bar.stdout)")
        #expect(bar.stdout.contains("BTC/USD"))

        let json = try await inTerminal("\(cli.binary) rates backfill --since 2026-11-02 --json")
        #expect(json.status == 0 && !json.stdout.contains("days\r") && !json.stdout.contains("] 0/"), "\(json.stdout)")
        #expect(json.stdout.contains("\"requests\" : 2") || json.stdout.contains("\"requests\": 2"), "\(json.stdout)")

        let piped = try await cli.run("rates", "backfill", "--since", "2026-10-20")
        #expect(piped.status == 0 && piped.stderr.isEmpty && !piped.stdout.contains("#"), "\(piped.stderr)")
    }
}

@Suite("CLI: the daemon's price backfill")
struct DaemonBackfillCLITests {
    @Test("run backfills the ledger's span at start; a failing history endpoint is logged and never stops the daemon")
    func runBackfills() async throws {
        let world = try await BackfillWorld(provider: "mempool", currencies: ["USD"])
        let cli = world.cli()
        #expect(try await cli.run("asset", "add", "Stack", "--currency", "BTC").status == 0)
        #expect(try await cli.run("tx", "add", "Stack", "0.01", "--date", "2026-11-01T10:00:00Z").status == 0)

        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: world.folder.path)
        #expect(try await eventually(within: .seconds(30)) { try await world.daily("USD").count == 21 }, "\(daemon.stderr)")
        BackfillCLITests.expectSeries(try await world.daily("USD"), BackfillCLITests.days("2026-11-01", "2026-11-21"),
                                      cents: BackfillCLITests.usd, provider: "mempool")
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(30)) == 0, "\(daemon.stderr)")

        // An older transaction widens the span; the provider fails: logged, retried later, the daemon keeps running.
        #expect(try await cli.run("tx", "add", "Stack", "0.02", "--date", "2026-10-20T10:00:00Z").status == 0)
        try await world.simulator.addFault(.status(500), at: "/mempool/api/v1/historical-price")
        let failing = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: world.folder.path)
        #expect(await eventually(within: .seconds(30)) { failing.stderr.contains("rates backfill failed; retrying later") }, "\(failing.stderr)")
        #expect(failing.stderr.contains("HTTP 500"), "\(failing.stderr)")
        #expect(failing.isRunning)
        #expect(try await world.daily("USD").count == 21)
        failing.send(SIGTERM)
        #expect(await failing.exitStatus(within: .seconds(30)) == 0, "\(failing.stderr)")
    }
}
