import Foundation
import Testing
import TestSupport

/// The month cycle end to end, checked against figures computed by hand.
///
/// Rates (static): BTC/USD 65000, BTC/EUR 60000, so EUR->USD = 65000/60000 = 13/12.
/// Display currency USD.
///   Cash (USD, manual, shared): 1000.00 on Oct 15; House 600.00, Trip 300.00.
///   Stack (BTC, manual, dedicated to House): 0.1 BTC on Oct 15; House 100%.
///   House: USD 10000 by 2027-06-30. Trip: EUR 2000 by 2026-12-31.
/// Plans at the start (Nov 2):
///   House funded = 600 + 0.1 x 65000 = 7100 USD; (10000 - 7100) / 8 months = 362.50 USD.
///   Trip funded = 300 USD = 300 x 12/13 = 276.923 -> 276.92 EUR; (2000 - 276.92) / 2 = 861.54 EUR.
/// During November:
///   Nov 9: +0.01 BTC on Stack; Rule 1 raises House's target; contribution 0.01 BTC = 650.00 USD.
///   Nov 10: Cash reallocated to House 500, Trip 400: House -100.00 USD, Trip +100.00 USD.
/// So: House contributed 550.00 USD (remaining 0); Trip 100 USD x 12/13 = 92.3077 -> 92.31 EUR,
///   remaining 769.23 EUR = 769.23 x 13/12 = 833.3325 -> 833.33 USD.
/// Totals (USD): planned 362.50 + 861.54 x 13/12 (= 933.335 -> 933.34) = 1295.84;
///   contributed 550.00 + 92.31 x 13/12 (= 100.0025 -> 100.00) = 650.00; remaining 833.33.
@Suite("CLI: the month, computed by hand")
struct MonthCLITests {
    let folder = TemporaryDirectory("walletwatch-month")

    func cli(_ now: String) -> CLIRunner { CLIRunner(folder: folder, now: now) }

    func writeConfig(usd: String = "65000", eur: String = "60000") {
        folder.write("walletwatch.toml", """
            [rates]
            provider = "static"
            currencies = ["USD", "EUR"]
            [rates.static]
            "BTC/USD" = "\(usd)"
            "BTC/EUR" = "\(eur)"
            """)
    }

    func setUpMonth(beforeStart: (CLIRunner) async throws -> Void = { _ in }) async throws {
        writeConfig()
        let october = cli("2026-11-01T08:00:00Z")
        for arguments in [
            ["asset", "add", "Cash", "--currency", "USD"], ["asset", "add", "Stack", "--currency", "BTC"],
            ["goal", "add", "House", "--currency", "USD", "--target", "10000", "--deadline", "2027-06-30"],
            ["goal", "add", "Trip", "--currency", "EUR", "--target", "2000", "--deadline", "2026-12-31"],
            ["tx", "add", "Cash", "1000", "--date", "2026-10-15T00:00:00Z"], ["tx", "add", "Stack", "0.1", "--date", "2026-10-15T00:00:00Z"],
            ["allocate", "Cash", "House=600", "Trip=300"], ["allocate", "Stack", "House=100%"],
        ] {
            let result = try await october.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let plan = try #require(try await october.run("month", "plan", "--json").objects)
        #expect(plan.map { $0["required"] as? Int } == [36250, 86154])
        try await beforeStart(october)
        #expect(try await cli("2026-11-02T08:00:00Z").run("month", "start").status == 0)
        let later = cli("2026-11-10T08:00:00Z")
        #expect(try await later.run("tx", "add", "Stack", "0.01", "--date", "2026-11-09T00:00:00Z").status == 0)
        #expect(try await later.run("allocate", "Cash", "House=500", "Trip=400").status == 0)
    }

    @Test("contributions, remaining and totals match the hand computation to the minor unit")
    func status() async throws {
        try await setUpMonth()
        let result = try await cli("2026-11-10T08:00:00Z").run("month", "status", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(result.object)
        #expect(status["month"] as? String == "2026-11")
        #expect(status["state"] as? String == "executing")
        #expect(status["started_at"] as? String == "2026-11-02T08:00:00.000Z")
        #expect(status["display_currency"] as? String == "USD")
        let goals = try #require(status["goals"] as? [[String: Any]])
        #expect(goals.map { $0["goal"] as? String } == ["House", "Trip"])
        #expect(goals.map { $0["planned"] as? Int } == [36250, 86154])
        #expect(goals.map { $0["contributed"] as? Int } == [55000, 9231])
        #expect(goals.map { $0["remaining"] as? Int } == [0, 76923])
        #expect(goals.map { $0["remaining_display"] as? Int } == [0, 83333])
        #expect(goals.map { $0["closed"] as? Bool } == [true, false])
        let total = try #require(status["total"] as? [String: Any])
        #expect(total["planned_display"] as? Int == 129584)
        #expect(total["contributed_display"] as? Int == 65000)
        #expect(total["remaining_display"] as? Int == 83333)
        let rates = try #require(status["rates"] as? [String: Any])
        #expect(rates["stale"] as? Bool == false)
        #expect((rates["missing"] as? [Any])?.isEmpty == true)
    }

    @Test("close-goal: a deposit for a dedicated asset, a clamped allocation for a shared one, none once closed")
    func closeGoal() async throws {
        try await setUpMonth()
        let later = cli("2026-11-10T08:00:00Z")
        // Trip's remaining 769.23 EUR is 833.33 USD; Cash has 100.00 USD unallocated: cut to that.
        let trip = try #require(try await later.run("month", "close-goal", "Trip", "--asset", "Cash", "--json").object)
        #expect(trip["action"] as? String == "allocate")
        #expect(trip["remaining"] as? Int == 76923)
        #expect(trip["remaining_display"] as? Int == 83333)
        #expect(trip["amount"] as? Int == 10000)
        #expect(trip["clamped"] as? Bool == true)
        #expect((trip["allocations"] as? [String: Any])?["Trip"] as? Int == 50000)
        #expect((trip["warning"] as? String)?.contains("unallocated") == true)
        // House is closed for the month.
        let house = try #require(try await later.run("month", "close-goal", "House", "--asset", "Stack", "--json").object)
        #expect(house["action"] as? String == "none")
        // A dedicated asset: a new goal funded only by a new asset gets a deposit in BTC.
        let applied = try await later.run("month", "close-goal", "Trip", "--asset", "Cash", "--apply", "--json")
        #expect(applied.status == 0)
        #expect(applied.object?["applied"] as? Bool == true)
        // Written to the allocation history, marked as close-goal's.
        let history = try #require(try await later.run("asset", "history", "Cash", "--json").objects)
        #expect(history.last?["goal"] as? String == "Trip" && history.last?["amount"] as? Int == 50_000 && history.last?["reason"] as? String == "close-goal",
                "\(history.last ?? [:])")
        let status = try #require(try await later.run("month", "status", "--json").object)
        let goals = try #require(status["goals"] as? [[String: Any]])
        // +100 USD more to Trip: 200 USD x 12/13 = 184.615 -> 184.62 EUR.
        #expect(goals.last?["contributed"] as? Int == 18462)

        // Closed needs no --asset, though House is funded by two assets.
        let closed = try await later.run("month", "close-goal", "House", "--json")
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.object?["action"] as? String == "none")
        // An asset holding only part of its balance for Trip is not dedicated as Rule 1 sees it:
        // a deposit there would stay unallocated, so the target is raised instead.
        for arguments in [["asset", "add", "Jar", "--currency", "USD"], ["tx", "add", "Jar", "1000"], ["allocate", "Jar", "Trip=600"]] {
            #expect(try await later.run(arguments).status == 0, "\(arguments)")
        }
        let jar = try #require(try await later.run("month", "close-goal", "Trip", "--asset", "Jar", "--json").object)
        #expect(jar["action"] as? String == "allocate", "\(jar)")
        let raisedBy = try #require(jar["amount"] as? Int)
        #expect(raisedBy > 0 && raisedBy <= 40_000)
        #expect((jar["allocations"] as? [String: Any])?["Trip"] as? Int == 60_000 + raisedBy)

        // A goal of the executing month cannot be deleted (its targets at the start would stay
        // in the month's figures); cancelling is the way, and nothing changed.
        let delete = try await later.run("goal", "delete", "Trip")
        #expect(delete.status == 65)
        #expect(delete.stderr.contains("part of 2026-11, which is executing") && delete.stderr.contains("goal cancel Trip"), "\(delete.stderr)")
        #expect(try await later.run("goal", "show", "Trip").status == 0)
    }

    /// House USD 10000 by 2027-06, 600 allocated: (10000 - 600) / 8 months = 1175.00 required.
    @Test("settings, plan skip, set and reset, and undo-start within the grace window")
    func settingsAndPlanChoices() async throws {
        writeConfig()
        let october = cli("2026-10-15T08:00:00Z")
        for arguments in [["asset", "add", "Cash", "--currency", "USD"], ["tx", "add", "Cash", "1000"],
                          ["goal", "add", "House", "--currency", "USD", "--target", "10000", "--deadline", "2027-06-30"],
                          ["goal", "add", "Trip", "--currency", "EUR", "--target", "2000", "--deadline", "2026-12-31"],
                          ["allocate", "Cash", "House=600", "Trip=300"]] {
            let result = try await october.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let now = cli("2026-11-02T08:00:00Z")
        let defaults = try #require(try await now.run("settings", "list", "--json").object)
        #expect(defaults["display_currency"] as? String == "USD" && defaults["undo_grace_hours"] as? String == "24" && defaults["time_zone"] as? String == "UTC")
        for (key, value) in [("undo_grace_hours", "abc"), ("display_currency", "XYZ"), ("time_zone", "Mars/Base"), ("bogus", "1")] {
            let refused = try await now.run("settings", "set", key, value)
            #expect(refused.status == 64 && refused.stderr.hasPrefix("error: ") && refused.stderr.contains(value == "1" ? key : value), "\(key): \(refused.stderr)")
        }
        #expect(try await now.run("settings", "set", "undo_grace_hours", "2").status == 0)
        #expect(try await now.run("settings", "get", "undo_grace_hours").stdout == "2\n")

        func plan() async throws -> [String: (custom: Int?, skipped: Bool, planned: Int)] {
            let lines = try #require(try await now.run("month", "plan", "--json").objects)
            return Dictionary(uniqueKeysWithValues: lines.map { ($0["goal"] as! String, ($0["custom"] as? Int, $0["skipped"] as! Bool, $0["planned"] as! Int)) })
        }
        #expect(try await plan()["House"]?.planned == 117_500)
        #expect(try await now.run("month", "plan", "skip", "Trip").status == 0)
        #expect(try await now.run("month", "plan", "set", "House", "500").status == 0)
        var chosen = try await plan()
        #expect(chosen["Trip"]?.skipped == true && chosen["Trip"]?.planned == 0)
        #expect(chosen["House"]?.custom == 50_000 && chosen["House"]?.planned == 50_000)
        #expect(try await now.run("month", "plan", "reset", "Trip").status == 0)
        #expect(try await now.run("month", "plan", "reset", "House").status == 0)
        chosen = try await plan()
        #expect(chosen["Trip"]?.skipped == false && chosen["House"]?.custom == nil && chosen["House"]?.planned == 117_500)

        // Started, then undone within the 2 hours set above: back to a draft whose plan can change.
        #expect(try await now.run("month", "start").status == 0)
        let undo = try await cli("2026-11-02T09:59:00Z").run("month", "undo-start")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try await now.run("month", "status", "--json").object?["state"] as? String == "draft")
        #expect(try await now.run("month", "plan", "set", "House", "400").status == 0)
        // Past the window, undo is refused (exit 65) naming until when.
        #expect(try await now.run("month", "start").status == 0)
        let late = try await cli("2026-11-02T10:01:00Z").run("month", "undo-start")
        #expect(late.status == 65 && late.stderr.contains("2026-11-02"), "\(late.stderr)")
    }

    /// Two BTC wallets each dedicated to House receive 1,000,010 sat in November. At 65000
    /// USD/BTC each is 650.0065 USD, 650.01 rounded alone; together 2,000,020 sat are
    /// 1300.013, 1300.01 rounded once, as `goal show` adds a goal's assets up.
    @Test("a goal's contributions are added per currency and converted once")
    func contributionsRoundedOnce() async throws {
        writeConfig()
        let october = cli("2026-10-15T12:00:00Z")
        for arguments in [["asset", "add", "A", "--currency", "BTC"], ["asset", "add", "B", "--currency", "BTC"],
                          ["tx", "add", "A", "0.1"], ["tx", "add", "B", "0.1"],
                          ["goal", "add", "House", "--currency", "USD", "--target", "20000", "--deadline", "2027-06-30"],
                          ["allocate", "A", "House=100%"], ["allocate", "B", "House=100%"]] {
            let result = try await october.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(try await cli("2026-11-02T08:00:00Z").run("month", "start").status == 0)
        let november = cli("2026-11-05T08:00:00Z")
        #expect(try await november.run("tx", "add", "A", "0.0100001").status == 0)
        #expect(try await november.run("tx", "add", "B", "0.0100001").status == 0)
        let status = try #require(try await november.run("month", "status", "--json").object)
        let house = try #require((status["goals"] as? [[String: Any]])?.first)
        #expect(house["contributed"] as? Int == 130_001)
    }

    /// Trip is in JPY, funded by BTC; the static rates know USD and EUR only. Nothing can say
    /// what Trip still needs or what it received: the month is not started or completed on a
    /// figure that counts the BTC as nothing. A custom amount needs no rate.
    @Test("start and complete refuse to freeze a figure that needs a missing rate (exit 1); a custom amount needs none")
    func missingRateFreezesNothing() async throws {
        writeConfig()
        let october = cli("2026-10-15T12:00:00Z")
        for arguments in [["asset", "add", "Stack", "--currency", "BTC"], ["tx", "add", "Stack", "0.1"],
                          ["goal", "add", "Trip", "--currency", "JPY", "--target", "1000000", "--deadline", "2027-03-31"],
                          ["allocate", "Stack", "Trip=100%"]] {
            let result = try await october.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let november = cli("2026-11-02T08:00:00Z")
        let start = try await november.run("month", "start")
        #expect(start.status == 1)
        #expect(start.stderr.contains("no exchange rate for BTC to JPY") && start.stderr.contains("month plan set Trip"), "\(start.stderr)")
        #expect(try await november.run("month", "status", "--json").object?["state"] as? String == "draft")
        #expect(try await november.run("month", "plan", "set", "Trip", "50000").status == 0)
        #expect(try await november.run("month", "start").status == 0)
        // close-goal still answers, in the goal's currency, and says why.
        let suggestion = try await november.run("month", "close-goal", "Trip", "--json")
        #expect(suggestion.status == 0, "\(suggestion.stderr)")
        #expect(suggestion.object?["action"] as? String == "deposit")
        #expect(suggestion.object?["asset_currency"] as? String == "JPY" && suggestion.object?["amount"] as? Int == 50_000)
        #expect(suggestion.object?["remaining_display"] is NSNull)
        #expect((suggestion.object?["warning"] as? String)?.contains("no exchange rate JPY/BTC") == true, "\(suggestion.stdout)")
        let apply = try await november.run("month", "close-goal", "Trip", "--apply")
        #expect(apply.status == 65 && apply.stderr.contains("refresh rates first"), "\(apply.stderr)")
        // A deposit that Rule 1 gives Trip: 0.01 BTC, which no rate turns into yen.
        #expect(try await cli("2026-11-05T08:00:00Z").run("tx", "add", "Stack", "0.01").status == 0)
        let later = cli("2026-11-28T08:00:00Z")
        let complete = try await later.run("month", "complete")
        #expect(complete.status == 1)
        #expect(complete.stderr.contains("no exchange rate BTC/JPY") && complete.stderr.contains("goal 'Trip'"), "\(complete.stderr)")
        #expect(try await later.run("month", "status", "--json").object?["state"] as? String == "executing", "nothing was frozen")
    }

    @Test("a deposit suggestion is converted into the dedicated asset's currency; a frozen plan refuses changes")
    func deposit() async throws {
        // House planned 2000.00 instead of 362.50: 2000 - 550 = 1450.00 USD remain, which is
        // 1450 / 65000 BTC = 0.022307692307... -> 2230769 sat.
        try await setUpMonth { october in _ = try await october.run("month", "plan", "set", "House", "2000") }
        let later = cli("2026-11-10T09:00:00Z")
        #expect(try await later.run("month", "plan", "set", "House", "1200").status == 65, "November's plan is frozen")
        let suggestion = try #require(try await later.run("month", "close-goal", "House", "--asset", "Stack", "--json").object)
        #expect(suggestion["action"] as? String == "deposit")
        #expect(suggestion["remaining"] as? Int == 145_000)
        #expect(suggestion["asset_currency"] as? String == "BTC")
        #expect(suggestion["amount"] as? Int == 2_230_769)
        #expect(suggestion["allocations"] is NSNull)
        // Applied on the manual asset: recorded as a deposit, Rule 1 sends it to House.
        #expect(try await later.run("month", "close-goal", "House", "--asset", "Stack", "--apply").status == 0)
        let status = try #require(try await cli("2026-11-10T09:00:01Z").run("month", "status", "--json").object)
        let house = try #require((status["goals"] as? [[String: Any]])?.first)
        // 0.02230769 BTC x 65000 = 1449.99985 -> 1450.00 USD more: 550.00 + 1450.00.
        #expect(house["contributed"] as? Int == 200_000)
        #expect(house["remaining"] as? Int == 0)
    }

    @Test("complete freezes the figures: later rate changes do not move them; undo after the grace window exits 65 naming until when")
    func completeAndUndo() async throws {
        try await setUpMonth()
        let completed = try await cli("2026-11-30T20:00:00Z").run("month", "complete", "--json")
        #expect(completed.status == 0, "\(completed.stderr)")
        writeConfig(usd: "90000", eur: "50000")
        let frozen = try #require(try await cli("2026-12-01T10:00:00Z").run("month", "status", "--month", "2026-11", "--json").object)
        #expect(frozen["state"] as? String == "closed")
        #expect((frozen["total"] as? [String: Any])?["planned_display"] as? Int == 129584)
        #expect((frozen["total"] as? [String: Any])?["remaining_display"] as? Int == 83333)
        #expect((frozen["goals"] as? [[String: Any]])?.map { $0["contributed"] as? Int } == [55000, 9231])
        let history = try #require(try await cli("2026-12-01T10:00:00Z").run("month", "history", "--json").objects)
        #expect(history.first?["month"] as? String == "2026-11")
        let late = try await cli("2026-12-02T20:00:01Z").run("month", "undo-complete")
        #expect(late.status == 65)
        #expect(late.stderr.contains("possible until 2026-12-01T20:00:00.000Z"), "\(late.stderr)")
        #expect(try await cli("2026-12-01T19:00:00Z").run("month", "undo-complete").status == 0)
        let lateStart = try await cli("2026-12-01T19:00:00Z").run("month", "undo-start")
        #expect(lateStart.status == 65)
        #expect(lateStart.stderr.contains("possible until"))
    }

    @Test("the month must be executing for close-goal; only one month executes at a time")
    func states() async throws {
        writeConfig()
        let now = cli("2026-11-05T08:00:00Z")
        try await now.run("goal", "add", "House", "--currency", "USD", "--target", "100", "--deadline", "2026-12-31")
        let draft = try await now.run("month", "close-goal", "House")
        #expect(draft.status == 65)
        #expect(draft.stderr.contains("draft"))
        #expect(try await now.run("month", "start").status == 0)
        #expect(try await now.run("month", "start").status == 65)
        let december = try await cli("2026-12-02T08:00:00Z").run("month", "start")
        #expect(december.status == 65)
        #expect(december.stderr.contains("2026-11 is still executing"))
    }
}
