import Foundation
import Testing
import TestSupport
import WalletWatchSim

/// Regular saving plans (SPEC.md section 19) through the built binary, over months of an
/// injected clock. Every expected figure is worked out by hand in the test.
@Suite("CLI: regular saving plans")
struct SavingPlanCLITests {
    static let staticRates = """
        [rates]
        provider = "static"
        currencies = ["USD", "EUR"]
        [rates.static]
        "BTC/USD" = "65000"
        """

    func manualFolder(_ name: String) -> TemporaryDirectory {
        let folder = TemporaryDirectory(name)
        folder.write("walletwatch.toml", Self.staticRates)
        return folder
    }

    func ok(_ cli: CLIRunner, _ arguments: String...) async throws -> CommandResult {
        let result = try await cli.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// `saving-plan list --json` as plan name -> its JSON object.
    func plans(_ cli: CLIRunner) async throws -> [String: [String: Any]] {
        let result = try await ok(cli, "saving-plan", "list", "--json")
        let list = try #require(result.objects, "\(result.stdout)")
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0) })
    }

    func last(_ plan: [String: Any]?) -> String? {
        guard let last = plan?["last"] as? [String: Any] else { return nil }
        return "\(last["due"]!) \(last["status"]!)"
    }

    @Test("automatic monthly plan from Jan 31: month-end dates, downtime caught up once, Rule 1 on each deposit")
    func automaticMonths() async throws {
        let folder = manualFolder("walletwatch-plans-auto")
        let database = folder.file("walletwatch.sqlite")
        let at = { (now: String) in CLIRunner(folder: folder, now: now) }
        let start = at("2026-01-31T08:00:00Z")
        _ = try await ok(start, "asset", "add", "Cash", "--currency", "USD")
        _ = try await ok(start, "goal", "add", "House", "--currency", "USD", "--target", "10000")
        _ = try await ok(start, "allocate", "Cash", "House=100%")

        // --start defaults to today (2026-01-31 by the injected clock): due now, recorded at once.
        let added = try await ok(start, "saving-plan", "add", "Rent", "--goal", "House", "--asset", "Cash", "--amount", "125.50",
                                 "--method", "automatic", "--json")
        let plan = try #require(added.object)
        #expect(plan["amount"] as? Int == 12_550 && plan["currency"] as? String == "USD" && plan["every"] as? String == "month")
        #expect(plan["next_due"] as? String == "2026-02-28")
        #expect(last(plan) == "2026-01-31 recorded")
        #expect(Set(plan.keys) == ["name", "goal", "asset", "amount", "currency", "every", "method", "next_due", "last"])

        // A second before February's last day: nothing; at its midnight (UTC): recorded.
        #expect(!(try await ok(at("2026-02-27T23:59:59Z"), "ingest").stdout.contains("recorded")))
        #expect(last(try await plans(at("2026-02-27T23:59:59Z"))["Rent"]) == "2026-01-31 recorded")
        #expect(try await ok(at("2026-02-28T00:00:00Z"), "ingest").stdout.contains("recorded the deposit due 2026-02-28"))

        // Down from March to mid-June: the next ingest records March 31, April 30 and May 31, once.
        let later = at("2026-06-15T09:00:00Z")
        let caughtUp = try await ok(later, "ingest").stdout
        for due in ["2026-03-31", "2026-04-30", "2026-05-31"] { #expect(caughtUp.contains("recorded the deposit due \(due)"), "\(caughtUp)") }
        #expect(caughtUp.components(separatedBy: "recorded the deposit").count == 4)
        // Again, by both commands that catch up: nothing more.
        #expect(!(try await ok(later, "ingest").stdout.contains("recorded")))
        let listed = try await plans(later)["Rent"]
        #expect(last(listed) == "2026-05-31 recorded" && listed?["next_due"] as? String == "2026-06-30")

        let transactions = try #require(try await ok(later, "tx", "list", "--asset", "Cash", "--json").objects)
        #expect(transactions.map { $0["date"] as? String } == ["2026-05-31", "2026-04-30", "2026-03-31", "2026-02-28", "2026-01-31"]
            .map { "\($0)T00:00:00.000Z" })
        #expect(transactions.allSatisfy { $0["amount"] as? Int == 12_550 && $0["type"] as? String == "manual" })
        #expect(try await sqlite(database, "SELECT COUNT(*) || ' ' || COUNT(DISTINCT due) || ' ' || MIN(status) || ' ' || MAX(status) FROM saving_plan_occurrences")
                == "5 5 recorded recorded")
        // Cash is dedicated to House: Rule 1 raised the target by each deposit, 5 x 125.50.
        let cash = try #require(try await ok(later, "asset", "show", "Cash", "--json").object)
        #expect(cash["balance"] as? Int == 62_750)
        #expect((cash["allocations"] as? [[String: Any]])?.first?["amount"] as? Int == 62_750)
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM allocation_history WHERE reason = 'rule1'") == "5")
        #expect(try await ok(later, "check").status == 0)

        // A cancelled goal's plan rests: no next date, nothing recorded.
        _ = try await ok(later, "goal", "cancel", "House")
        let resting = try await plans(at("2026-08-01T00:00:00Z"))["Rent"]
        #expect(resting?["next_due"] is NSNull && last(resting) == "2026-05-31 recorded")
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM saving_plan_occurrences") == "5")

        // Deleting the plan keeps the deposits it recorded.
        #expect(try await ok(later, "saving-plan", "delete", "rent").stdout == "deleted saving plan 'Rent'\n")
        #expect(try await plans(later).isEmpty)
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions") == "5")
    }

    @Test("four processes catching up at once record each of 60 daily dates exactly once")
    func concurrentCatchUp() async throws {
        let folder = manualFolder("walletwatch-plans-concurrent")
        let setup = CLIRunner(folder: folder, now: "2026-01-01T08:00:00Z")
        _ = try await ok(setup, "asset", "add", "Cash", "--currency", "USD")
        _ = try await ok(setup, "goal", "add", "House", "--currency", "USD", "--target", "10000")
        _ = try await ok(setup, "saving-plan", "add", "Daily", "--goal", "House", "--asset", "Cash", "--amount", "1", "--every", "day",
                         "--method", "automatic", "--start", "2026-01-02")
        // Jan 2-31 (30 days), February (28), Mar 1-2 (2): 60 dates due by Mar 2.
        let cli = CLIRunner(folder: folder, now: "2026-03-02T12:00:00Z")
        async let first = cli.run("ingest")
        async let second = cli.run("saving-plan", "list")
        async let third = cli.run("ingest")
        async let fourth = cli.run("saving-plan", "list", "--json")
        let results = try await [first, second, third, fourth]
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        // The JSON listing tells on stderr, the others on stdout: each date exactly once in all.
        let recorded = results.map { ($0.stdout + $0.stderr).components(separatedBy: "recorded the deposit due").count - 1 }.reduce(0, +)
        #expect(recorded == 60, "each date reported by the one process that recorded it")
        #expect(try JSONSerialization.jsonObject(with: Data(results[3].stdout.utf8)) is [Any], "stdout stays one JSON document")
        let database = folder.file("walletwatch.sqlite")
        #expect(try await sqlite(database, "SELECT COUNT(*) || ' ' || COUNT(DISTINCT date) || ' ' || SUM(amount) FROM transactions") == "60 60 6000")
        #expect(try await sqlite(database, "SELECT COUNT(*) || ' ' || MIN(due) || ' ' || MAX(due) FROM saving_plan_occurrences")
                == "60 2026-01-02 2026-03-02")
    }

    @Test("every refusal exits 65 with one error line and stores nothing")
    func refusals() async throws {
        let demo = try await DemoSetup()
        let cli = demo.cli()
        _ = try await ok(cli, "ingest", "--source", "ark")
        _ = try await ok(cli, "asset", "add", "Cash", "--currency", "USD")
        _ = try await ok(cli, "goal", "add", "House", "--currency", "USD", "--target", "10000")
        _ = try await ok(cli, "goal", "add", "Old", "--currency", "USD", "--target", "10")
        _ = try await ok(cli, "goal", "finish", "Old")
        _ = try await ok(cli, "saving-plan", "add", "Rent", "--goal", "House", "--asset", "Cash", "--amount", "100", "--start", "2027-01-01")
        let base = ["saving-plan", "add", "New", "--goal", "House", "--asset", "Cash"]
        let cases: [([String], String)] = [
            (["saving-plan", "add", "New", "--goal", "Nope", "--asset", "Cash", "--amount", "1"], "error: no goal named 'Nope'"),
            (["saving-plan", "add", "New", "--goal", "Old", "--asset", "Cash", "--amount", "1"], "error: goal 'Old' is finished; a saving plan needs an active goal"),
            (["saving-plan", "add", "New", "--goal", "House", "--asset", "Nope", "--amount", "1"], "error: no asset named 'Nope'"),
            (base + ["--amount", "0"], "error: --amount '0' is not positive"),
            (base + ["--amount=-5"], "error: --amount '-5' is not positive"),
            (base + ["--amount", "lots"], "error: --amount 'lots' is not an amount; write it like 250.50, 0.015"),
            (base + ["--amount", "1.005"], "error: --amount '1.005' has more decimals than USD allows (2 decimal places)"),
            (base + ["--amount", "1", "--every", "fortnight"], "error: --every 'fortnight' is not accepted; use day, week, month"),
            (base + ["--amount", "1", "--method", "magic"], "error: --method 'magic' is not accepted; use reminder, automatic"),
            (base + ["--amount", "1", "--start", "2026-02-30"], "error: --start '2026-02-30' is not a date; write it like 2026-11-21"),
            (base + ["--amount", "1", "--start", "tomorrow"], "error: --start 'tomorrow' is not a date"),
            (base + ["--amount", "1", "--currency", "XYZ"], "error: --currency: unknown currency 'XYZ'"),
            (["saving-plan", "add", "New", "--goal", "House", "--asset", "Ark wallet", "--amount", "1000sat", "--method", "automatic"],
             "error: an automatic plan records its deposits itself, and only a manual asset takes them; 'Ark wallet' is fed by source 'ark'"),
            (["saving-plan", "add", "RENT", "--goal", "House", "--asset", "Cash", "--amount", "5"], "error: saving plan 'Rent' already exists; choose another name"),
            (["saving-plan", "delete", "Nope"], "error: no saving plan named 'Nope'"),
        ]
        for (arguments, expected) in cases {
            let result = try await cli.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix(expected), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): one line: \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
        #expect(try await sqlite(demo.folder.file("walletwatch.sqlite"), "SELECT group_concat(name) FROM saving_plans") == "Rent")
        #expect(try await plans(cli).keys.sorted() == ["Rent"])
    }

    /// A barkd wallet with nothing in it yet, and a config that ingests it.
    func walletWorld() async throws -> (Simulator, TemporaryDirectory) {
        let simulator = try await Simulator.start(scenario: Scenario(wallets: [WalletScenario(name: "ark", token: "t")]))
        let folder = TemporaryDirectory("walletwatch-plans-wallet")
        folder.write("token", "t")
        chmod(folder.file("token"), 0o600)
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "ark"
            kind = "barkd"
            url = "\(simulator.barkdURL("ark"))"
            token_file = "token"
            ark_asset = "Ark wallet"
            \(Self.staticRates)
            """)
        return (simulator, folder)
    }

    func receive(_ simulator: Simulator, _ sats: Int64, at time: String) async throws -> String {
        let movement = try await simulator.addMovement(BarkdMovement(
            subsystem: .arkoorReceive, effectiveBalanceSat: sats, time: .completed(at: try #require(SimTime(iso8601: time)))), to: "ark")
        return "ark:ark:\(movement.id)"
    }

    @Test("reminders on a wallet: pending, fulfilled and missed at the right instants; one deposit for one reminder; deposits valued at their dates")
    func reminders() async throws {
        let (simulator, folder) = try await walletWorld()
        defer { Task { await simulator.stop() } }
        let database = folder.file("walletwatch.sqlite")
        let at = { (now: String) in CLIRunner(folder: folder, now: now) }
        let setup = at("2026-11-01T12:00:00Z")
        _ = try await ok(setup, "ingest")
        _ = try await ok(setup, "goal", "add", "House", "--currency", "EUR", "--target", "1000")
        _ = try await ok(setup, "saving-plan", "add", "Stack", "--goal", "House", "--asset", "Ark wallet", "--amount", "10000sat",
                         "--every", "week", "--start", "2026-11-02")
        _ = try await ok(setup, "saving-plan", "add", "Euro", "--goal", "House", "--asset", "Ark wallet", "--amount", "10",
                         "--currency", "EUR", "--every", "week", "--start", "2026-11-09")
        // Daily BTC/EUR prices. A deposit is valued at its own date: 11-10's price for one made that
        // day, 11-10's again (the latest before) for one on 11-17, which has none; 11-20's higher
        // price must not count for either.
        folder.write("prices.csv", "date,base,quote,rate\n2026-11-10,BTC,EUR,50000\n2026-11-20,BTC,EUR,100000\n")
        _ = try await ok(at("2026-11-21T00:00:00Z"), "rates", "import", "prices.csv")
        let before = try await plans(setup)
        #expect(before["Stack"]?["next_due"] as? String == "2026-11-02" && before["Stack"]?["last"] is NSNull)
        #expect(before["Euro"]?["amount"] as? Int == 1_000 && before["Euro"]?["currency"] as? String == "EUR")

        func statuses(_ plan: String) async throws -> String {
            try await sqlite(database, """
                SELECT group_concat(entry, ', ') FROM (SELECT o.due || ' ' || o.status AS entry
                FROM saving_plan_occurrences o JOIN saving_plans p ON p.id = o.plan_id WHERE p.name = '\(plan)' ORDER BY o.due)
                """)
        }

        // Week of Nov 2: 6,000 sat on the 3rd is short of 10,000: pending.
        let a = try await receive(simulator, 6_000, at: "2026-11-03T10:00:00Z")
        _ = try await ok(at("2026-11-04T00:00:00Z"), "ingest")
        #expect(last(try await plans(at("2026-11-04T00:00:00Z"))["Stack"]) == "2026-11-02 pending")
        // 5,000 more on the 5th: 11,000 in all, fulfilled by both.
        let b = try await receive(simulator, 5_000, at: "2026-11-05T10:00:00Z")
        let fulfilled = try await ok(at("2026-11-05T12:00:00Z"), "ingest").stdout
        #expect(fulfilled.contains("saving plan 'Stack': 2026-11-02 fulfilled by \(a), \(b)"), "\(fulfilled)")
        #expect(last(try await plans(at("2026-11-05T12:00:00Z"))["Stack"]) == "2026-11-02 fulfilled")

        // Nov 9: both plans due. 24,000 sat on the 10th is 12.00 EUR at 50,000 EUR/BTC: it covers
        // Euro's 10 EUR (first by name) and so cannot also count for Stack's 10,000 sat.
        _ = try await ok(at("2026-11-09T00:00:00Z"), "ingest")
        let c = try await receive(simulator, 24_000, at: "2026-11-10T09:00:00Z")
        _ = try await ok(at("2026-11-10T12:00:00Z"), "ingest")
        #expect(try await statuses("Euro") == "2026-11-09 fulfilled")
        #expect(try await statuses("Stack") == "2026-11-02 fulfilled, 2026-11-09 pending")
        #expect(try await sqlite(database, "SELECT txid || ' ' || value FROM saving_plan_claims WHERE due = '2026-11-09'") == "\(c) 1200")
        // Stack's week of Nov 9 ends at Nov 16 00:00 UTC: pending one millisecond before, missed then.
        _ = try await ok(at("2026-11-15T23:59:59.999Z"), "ingest")
        #expect(try await statuses("Stack") == "2026-11-02 fulfilled, 2026-11-09 pending")
        _ = try await ok(at("2026-11-16T00:00:00Z"), "ingest")
        #expect(try await statuses("Stack") == "2026-11-02 fulfilled, 2026-11-09 missed, 2026-11-16 pending")

        // 15,000 sat on the 17th: 7.50 EUR at the 10th's price (20th's 100,000 would make it 15):
        // short for Euro, enough for Stack.
        let d = try await receive(simulator, 15_000, at: "2026-11-17T10:00:00Z")
        _ = try await ok(at("2026-11-17T12:00:00Z"), "ingest")
        #expect(try await statuses("Stack") == "2026-11-02 fulfilled, 2026-11-09 missed, 2026-11-16 fulfilled")
        #expect(try await statuses("Euro") == "2026-11-09 fulfilled, 2026-11-16 pending")
        _ = try await ok(at("2026-11-23T00:00:00Z"), "ingest")
        #expect(try await statuses("Euro") == "2026-11-09 fulfilled, 2026-11-16 missed, 2026-11-23 pending")
        #expect(try await sqlite(database, "SELECT group_concat(txid, ' ') FROM saving_plan_claims")
                .split(separator: " ").map(String.init).sorted() == [a, b, c, d].sorted())
        // Caught up again at the same instant: nothing changes.
        let counts = try await sqlite(database, "SELECT (SELECT COUNT(*) FROM saving_plan_occurrences) || ' ' || (SELECT COUNT(*) FROM saving_plan_claims)")
        #expect(counts == "7 4")
        _ = try await ok(at("2026-11-23T00:00:00Z"), "ingest")
        _ = try await plans(at("2026-11-23T00:00:00Z"))
        #expect(try await sqlite(database, "SELECT (SELECT COUNT(*) FROM saving_plan_occurrences) || ' ' || (SELECT COUNT(*) FROM saving_plan_claims)") == counts)
    }

    @Test("the daemon records due dates on its own; the page and watch show the same next plan")
    func daemonAndViews() async throws {
        let folder = manualFolder("walletwatch-plans-daemon")
        let database = folder.file("walletwatch.sqlite")
        let setup = CLIRunner(folder: folder, now: "2026-03-01T08:00:00Z")
        _ = try await ok(setup, "asset", "add", "Cash", "--currency", "USD")
        _ = try await ok(setup, "goal", "add", "House", "--currency", "USD", "--target", "10000")
        _ = try await ok(setup, "saving-plan", "add", "Rent", "--goal", "House", "--asset", "Cash", "--amount", "100",
                         "--method", "automatic", "--start", "2026-03-31")
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM saving_plan_occurrences") == "0")

        // The daemon starts on May 1st: March 31 and April 30 are due.
        let cli = CLIRunner(folder: folder, now: "2026-05-01T08:00:00Z")
        let portFile = folder.file("web.port")
        let server = try BackgroundProcess(cli.binary, ["serve", "--listen", "127.0.0.1:0", "--port-file", portFile],
                                           environment: cli.environment, currentDirectory: folder.path)
        #expect(try await eventually(within: .seconds(30)) {
            try await sqlite(database, "SELECT COUNT(*) FROM saving_plan_occurrences") == "2"
        }, "\(server.stderr)")
        var port = 0
        #expect(await eventually(within: .seconds(20)) {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return port > 0
        })
        let line = "Rent: 100.00 USD into Cash for House on 2026-05-31 (automatic; last 2026-04-30 recorded)"
        let page = try await ProcessRunner.run("/usr/bin/curl", ["-s", "--max-time", "30", "http://127.0.0.1:\(port)/"],
                                               environment: [:], currentDirectory: "/").stdout
        #expect(page.contains("<section id=\"next-plan\"><h2>Next saving plan</h2><p>\(line)</p></section>"), "\(page.prefix(3000))")
        let frame = try await ok(cli, "watch", "--once").stdout
        #expect(frame.contains("NEXT SAVING PLAN\n\(line)\n"), "\(frame)")
        server.send(SIGTERM)
        #expect(await server.exitStatus(within: .seconds(30)) == 0, "\(server.stderr)")

        // After the daemon, a command catching up at the same instant adds nothing.
        #expect(!(try await ok(cli, "ingest").stdout.contains("recorded")))
        #expect(try await sqlite(database, "SELECT group_concat(substr(date, 1, 10), ' ') FROM (SELECT date FROM transactions ORDER BY date)")
                == "2026-03-31 2026-04-30")
    }
}
