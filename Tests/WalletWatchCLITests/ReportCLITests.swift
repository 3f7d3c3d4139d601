import Foundation
import Testing
import TestSupport

/// `walletwatch report` end to end, against figures computed by hand.
///
/// Display currency USD. Daily prices imported with `rates import`: BTC/USD 10 on Oct 1, 12 on
/// Oct 2, 14 on Oct 3 (from 00:00 UTC); the static provider's BTC/USD 13 is the price now
/// (Nov 21, stored when the report refreshes the stale rate).
///   Cash (USD): +100.00 on Oct 1 12:00.
///   Stack (BTC): +10 on Oct 1 12:00 (@10), +10 on Oct 2 12:00 (@12), -5 on Oct 3 12:00 (@14).
/// Stack: average cost (10 x 10 + 10 x 12) / 20 = 11.00; cost basis 15 x 11 = 165.00; value
///   15 x 13 = 195.00; unrealized 30.00; realized 5 x (14 - 11) = 15.00; TWR 13 / 10 - 1 = 0.3.
/// Cash: average cost 1.00, cost basis = value = 100.00, no gain, TWR 0.
/// Total: value 295.00, cost basis 265.00, unrealized 30.00, realized 15.00. TWR, periods
///   between flows: Oct 1 after the flows 100 + 100 = 200; Oct 2 before 100 + 120 = 220
///   (r1 = 0.1), after 340; Oct 3 before 100 + 280 = 380 (r2 = 380/340 - 1), after 310; now
///   100 + 195 = 295 (r3 = 295/310 - 1). 1.1 x 380/340 x 295/310 = 123310/105400 = 1.1699241.
/// Goals (allocated Oct 5): House USD 500 <- Cash 100% + Stack 5 BTC: 100 + 65 = 165.00, 33%,
///   335.00 to go. Bike USD 100 <- Stack 10 BTC = 130.00: 130%, reached, distance -30.00.
@Suite("CLI: report, computed by hand")
struct ReportCLITests {
    let folder = TemporaryDirectory("walletwatch-report")

    func cli(_ now: String = "2026-11-21T12:00:00Z") -> CLIRunner { CLIRunner(folder: folder, now: now) }

    /// Writes the ledger described above into the test's folder. The 11 or 12 commands that
    /// write it run once per `importPrices` in the test process (``FolderTemplates``); each
    /// test gets a copy of the folder they wrote.
    func setUp(importPrices: Bool = true) async throws {
        try await FolderTemplates.shared.snapshot("report importPrices=\(importPrices)") { folder in
            try await Self.build(in: folder, importPrices: importPrices)
        }.write(into: folder)
    }

    static func build(in folder: TemporaryDirectory, importPrices: Bool) async throws {
        folder.write("walletwatch.toml", """
            [rates]
            provider = "static"
            currencies = ["USD"]
            [rates.static]
            "BTC/USD" = "13"
            "BTC/EUR" = "12"
            """)
        folder.write("prices.csv", "date,base,quote,rate\n2026-10-01,BTC,USD,10\n2026-10-02,BTC,USD,12\n2026-10-03,BTC,USD,14\n")
        let october = CLIRunner(folder: folder, now: "2026-10-05T12:00:00Z")
        var steps: [[String]] = [
            ["asset", "add", "Cash", "--currency", "USD"], ["asset", "add", "Stack", "--currency", "BTC"],
            ["tx", "add", "Cash", "100", "--date", "2026-10-01T12:00:00Z"],
            ["tx", "add", "Stack", "10", "--date", "2026-10-01T12:00:00Z"], ["tx", "add", "Stack", "10", "--date", "2026-10-02T12:00:00Z"],
            ["tx", "add", "Stack", "-5", "--date", "2026-10-03T12:00:00Z"],
            ["goal", "add", "House", "--currency", "USD", "--target", "500"], ["goal", "add", "Bike", "--currency", "USD", "--target", "100"],
            ["allocate", "Cash", "House=100%"], ["allocate", "Stack", "House=5", "Bike=10"],
        ]
        if importPrices { steps.insert(["rates", "import", "prices.csv"], at: 0) }
        for arguments in steps {
            let result = try await october.run(arguments)
            guard result.status == 0 else { throw SetupCommandError(arguments: arguments, result: result) }
        }
    }

    @Test("per asset, total and goals match the hand computation to the cent")
    func figures() async throws {
        try await setUp()
        let result = try await cli().run("report", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let report = try #require(result.object)
        #expect(report["currency"] as? String == "USD")
        let assets = try #require(report["assets"] as? [[String: Any]])
        #expect(assets.map { $0["name"] as? String } == ["Cash", "Stack"])
        #expect(assets.map { $0["asset_currency"] as? String } == ["USD", "BTC"])
        #expect(assets.map { $0["quantity"] as? Int } == [10_000, 1_500_000_000])
        #expect(assets.map { $0["value"] as? Int } == [10_000, 19_500])
        #expect(assets.map { $0["average_cost"] as? Int } == [100, 1_100])
        #expect(assets.map { $0["cost_basis"] as? Int } == [10_000, 16_500])
        #expect(assets.map { $0["unrealized_gain"] as? Int } == [0, 3_000])
        #expect(assets.map { $0["realized_gain"] as? Int } == [0, 1_500])
        #expect(assets.map { ($0["twr"] as? NSNumber)?.doubleValue } == [0, 0.3])
        let total = try #require(report["total"] as? [String: Any])
        #expect(total["value"] as? Int == 29_500)
        #expect(total["cost_basis"] as? Int == 26_500)
        #expect(total["unrealized_gain"] as? Int == 3_000)
        #expect(total["realized_gain"] as? Int == 1_500)
        #expect(result.stdout.contains("\"twr\": 0.169924"), "the total's TWR printed to six places")
        let goals = try #require(report["goals"] as? [[String: Any]])
        #expect(goals.map { $0["goal"] as? String } == ["Bike", "House"])
        #expect(goals.map { ($0["achievement_rate"] as? NSNumber)?.doubleValue } == [1.3, 0.33])
        #expect(goals.map { $0["distance"] as? Int } == [-3_000, 33_500])
        #expect(goals.map { $0["reached"] as? Bool } == [true, false])
        // goal list shows the same figures.
        let listed = try #require(try await cli().run("goal", "list", "--json").objects)
        let byName = Dictionary(uniqueKeysWithValues: listed.map { ($0["name"] as! String, $0) })
        #expect((byName["Bike"]?["progress"] as? NSNumber)?.doubleValue == 1.3 && byName["Bike"]?["distance"] as? Int == -3_000)
        #expect(byName["Bike"]?["reached"] as? Bool == true && byName["Bike"]?["funded"] as? Int == 13_000)
        #expect((byName["House"]?["progress"] as? NSNumber)?.doubleValue == 0.33 && byName["House"]?["distance"] as? Int == 33_500)
        #expect(byName["House"]?["reached"] as? Bool == false)

        let table = try await cli().run("report")
        #expect(table.status == 0)
        #expect(table.stdout.contains("Stack  15.00000000 BTC  195.00     11.00      165.00       30.00     15.00  30.0%"), "\(table.stdout)")
        #expect(table.stdout.contains("Total                   295.00                265.00       30.00     15.00  17.0%"), "\(table.stdout)")
    }

    @Test("the value timeline: a point at every transaction or rate date, and one a day for charts")
    func timeline() async throws {
        try await setUp()
        let events = try #require(try await cli().run("report", "--json", "--timeline", "events").object?["timeline"] as? [[String: Any]])
        #expect(events.map { $0["date"] as? String } == [
            "2026-10-01T12:00:00.000Z", "2026-10-02T00:00:00.000Z", "2026-10-02T12:00:00.000Z", "2026-10-03T00:00:00.000Z",
            "2026-10-03T12:00:00.000Z", "2026-11-21T12:00:00.000Z",
        ])
        #expect(events.map { $0["value"] as? Int } == [20_000, 22_000, 34_000, 38_000, 31_000, 29_500])
        let daily = try #require(try await cli().run("report", "--json", "--timeline", "daily").object?["timeline"] as? [[String: Any]])
        #expect(daily.count == 52, "Oct 1 through Nov 21")
        #expect(daily.first?["date"] as? String == "2026-10-01T23:59:59.999Z")
        #expect(daily.last?["value"] as? Int == 29_500)
        #expect(try await cli().run("report", "--timeline", "weekly", "--json").status == 64)
    }

    @Test("without older prices the figures that need them are null, with a warning naming the pair and the date")
    func missingRates() async throws {
        try await setUp(importPrices: false)
        let result = try await cli().run("report", "--json")
        #expect(result.status == 0)
        let stack = try #require((result.object?["assets"] as? [[String: Any]])?.last)
        #expect(stack["value"] as? Int == 19_500, "the price now is known")
        #expect(stack["average_cost"] is NSNull)
        #expect(stack["cost_basis"] is NSNull)
        #expect(stack["unrealized_gain"] is NSNull)
        #expect(stack["twr"] is NSNull)
        #expect((stack["missing_rate"] as? [String: Any])?["date"] as? String == "2026-10-01T12:00:00.000Z")
        #expect(result.stderr.contains("no BTC/USD rate at or before 2026-10-01T12:00:00.000Z for 'Stack'"), "\(result.stderr)")
        #expect((result.object?["total"] as? [String: Any])?["cost_basis"] is NSNull)
        let table = try await cli().run("report")
        #expect(table.stdout.contains("no rate"))

        // In EUR only today's BTC/EUR is known: Cash's value crosses through BTC (100 x 12/13).
        let euro = try #require(try await cli().run("report", "--currency", "EUR", "--asset", "cash", "--json").object)
        #expect(euro["currency"] as? String == "EUR")
        let cash = try #require((euro["assets"] as? [[String: Any]])?.first)
        #expect((euro["assets"] as? [Any])?.count == 1)
        #expect(cash["value"] as? Int == 9_231)
        #expect(cash["average_cost"] is NSNull)
        #expect((euro["total"] as? [String: Any])?["value"] as? Int == 9_231)
    }

    /// A goal in JPY funded by a EUR asset: no rate connects them, so the goal's funded amount,
    /// achievement, distance and reached are unknown (null, "no rate"), never computed as if
    /// the asset were worth nothing; the other goals keep their figures.
    @Test("a goal whose asset has no rate to the goal's currency shows unknown figures, not zero")
    func goalWithoutRate() async throws {
        try await setUp()
        for arguments in [["asset", "add", "Euros", "--currency", "EUR"], ["tx", "add", "Euros", "50", "--date", "2026-11-01T12:00:00Z"],
                          ["goal", "add", "Trip", "--currency", "JPY", "--target", "100000"], ["allocate", "Euros", "Trip=100%"]] {
            let result = try await cli().run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let report = try await cli().run("report", "--json")
        #expect(report.status == 0, "\(report.stderr)")
        let goals = try #require(report.object?["goals"] as? [[String: Any]])
        let trip = try #require(goals.first { $0["goal"] as? String == "Trip" })
        for key in ["funded", "achievement_rate", "distance", "reached", "distance_display"] {
            #expect(trip[key] is NSNull, "\(key): \(trip[key] ?? "absent")")
        }
        #expect(trip["missing_rates"] as? [String] == ["EUR/JPY"], "the pair is named")
        #expect(goals.first { $0["goal"] as? String == "Bike" }?["reached"] as? Bool == true, "the other goals keep their figures")
        #expect(report.stderr.contains("no exchange rate for EUR"), "\(report.stderr)")

        let show = try #require(try await cli().run("goal", "show", "Trip", "--json").object)
        #expect(show["funded"] is NSNull && show["progress"] is NSNull && show["reached"] is NSNull && show["distance"] is NSNull)
        let table = try await cli().run("goal", "list")
        let line = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("Trip") })
        #expect(line.contains("no rate for EUR/JPY") && !line.contains("0%"), "\(line)")
    }

    @Test("rates --json lists each stored pair; --refresh with nothing to fall back on is one error line, exit 1")
    func ratesCommand() async throws {
        try await setUp()
        let listed = try #require(try await cli().run("rates", "--json").objects)
        let usd = try #require(listed.first { $0["quote"] as? String == "USD" })
        #expect(usd["base"] as? String == "BTC" && (usd["rate"] as? NSNumber)?.intValue == 13)
        #expect(usd["provider"] as? String == "static" && usd["stale"] as? Bool == false && usd["fetched_at"] is String)

        let offline = TemporaryDirectory("walletwatch-rates")
        offline.write("walletwatch.toml", "[rates]\nprovider = \"coingecko\"\nurl = \"http://127.0.0.1:9/api/v3\"\n[http]\nretries = 0\n")
        let refreshed = try await CLIRunner(folder: offline).run("rates", "--refresh")
        #expect(refreshed.status == 1)
        #expect(refreshed.stderr.hasPrefix("error: exchange rates could not be refreshed") && refreshed.stderr.contains("no rates are stored"), "\(refreshed.stderr)")
        #expect(refreshed.stderr.split(separator: "\n").count == 1, "\(refreshed.stderr)")
    }

    @Test("rates import: duplicates and malformed lines import nothing (exit 65, naming the lines); --replace overwrites")
    func ratesImport() async throws {
        try await setUp()
        let database = folder.file("walletwatch.sqlite")
        let again = try await cli().run("rates", "import", "prices.csv")
        #expect(again.status == 65)
        #expect(again.stderr.contains("line 2: BTC/USD on 2026-10-01; line 3: BTC/USD on 2026-10-02"), "\(again.stderr)")
        folder.write("bad.csv", "date,base,quote,rate\n2026-10-04,BTC,USD,15\n2026-10-05,BTC,USD,abc\n2026-10-32,BTC,USD,15\n")
        let bad = try await cli().run("rates", "import", "bad.csv")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("line 3: rate 'abc'") && bad.stderr.contains("line 4: date '2026-10-32'"), "\(bad.stderr)")
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM rate_history WHERE provider = 'import'") == "3")

        // Oct 2 at 16 instead of 12: average cost (100 + 160) / 20 = 13.00, cost basis 195.00,
        // realized 5 x (14 - 13) = 5.00.
        folder.write("fix.csv", "date,base,quote,rate\n2026-10-02,BTC,USD,16\n")
        let replaced = try await cli().run("rates", "import", "fix.csv", "--replace", "--json")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.object?["replaced"] as? Int == 1)
        let stack = try #require((try await cli().run("report", "--json", "--asset", "Stack").object?["assets"] as? [[String: Any]])?.first)
        #expect(stack["average_cost"] as? Int == 1_300)
        #expect(stack["cost_basis"] as? Int == 19_500)
        #expect(stack["realized_gain"] as? Int == 500)
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM rate_history WHERE provider = 'import'") == "3")
    }

    @Test("report --svg writes the portfolio and goal charts as one SVG file, mode 0600")
    func svg() async throws {
        try await setUp()
        let result = try await cli().run("report", "--svg", "chart.svg")
        #expect(result.status == 0, "\(result.stderr)")
        let path = folder.file("chart.svg")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(text.components(separatedBy: "<g transform=").count - 1 == 3, "the portfolio, Bike and House")
        #expect(text.contains("Portfolio value (USD)") && text.contains("House (USD)") && text.contains("Bike (USD)"))
        #expect(text.contains("<polyline"))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }
}
