import Foundation
import Testing
import TestSupport

@Suite("CLI: init, manual ledger, goals")
struct FoundationCLITests {
    let folder = TemporaryDirectory("walletwatch-cli")
    var cli: CLIRunner { CLIRunner(folder: folder) }

    @Test("the issue's acceptance walk-through, as a user would type it")
    func acceptance() async throws {
        let initialised = try await cli.run("init")
        #expect(initialised.status == 0, "\(initialised.stderr)")
        let modes = try [folder.file("walletwatch.toml"), folder.file("walletwatch.sqlite")].map {
            try FileManager.default.attributesOfItem(atPath: $0)[.posixPermissions] as! Int
        }
        #expect(modes == [0o600, 0o600])

        #expect(try await cli.run("asset", "add", "Cash", "--currency", "USD").status == 0)
        #expect(try await cli.run("tx", "add", "Cash", "250.50", "--date", "2026-11-02T10:00:00Z").status == 0)
        let list = try await cli.run("tx", "list", "--json")
        #expect(list.status == 0)
        let rows = try #require(list.objects)
        #expect(rows.count == 1)
        #expect(rows[0]["amount"] as? Int == 25050)
        #expect(rows[0]["currency"] as? String == "USD")
        #expect(rows[0]["asset"] as? String == "Cash")
        #expect(rows[0]["direction"] as? String == "incoming")
        #expect(rows[0]["date"] as? String == "2026-11-02T10:00:00.000Z")
        #expect(Set(rows[0].keys) == ["txid", "asset", "amount", "currency", "type", "status", "direction", "date", "tags",
                                      "value_at_date", "value_currency"])
        // Valued in the display currency (USD, the asset's own): the amount itself.
        #expect(rows[0]["value_at_date"] as? Int == 25050 && rows[0]["value_currency"] as? String == "USD")

        let future = try await cli.run("tx", "add", "Cash", "5", "--date", "2026-12-01T00:00:00Z")
        #expect(future.status == 65)
        #expect(future.stderr.hasPrefix("error: ") && future.stderr.contains("future"))

        let overdraft = try await cli.run("tx", "add", "Cash", "-300", "--date", "2026-11-03T00:00:00Z")
        #expect(overdraft.status == 65)
        #expect(overdraft.stderr.contains("250.50 USD"))
        #expect(overdraft.stdout.isEmpty)

        let unknown = try await cli.run("frobnicate")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: "))

        #expect(try await cli.run("goal", "add", "House", "--currency", "USD", "--target", "10000").status == 0)
        let goals = try #require(try await cli.run("goal", "list", "--json").objects)
        #expect(goals.first?["name"] as? String == "House")
        #expect(goals.first?["target"] as? Int == 1_000_000)
        #expect(goals.first?["funded"] as? Int == 0)
    }

    @Test("commands started at the same moment on a new database all open it: one creates the schema, the others find it")
    func concurrentFirstOpen() async throws {
        folder.write("walletwatch.toml", "database = \"walletwatch.sqlite\"\n")
        let cli = self.cli
        // Several rounds, each on a new file: the schema has eight migrations, and a process may
        // come second to any of them.
        for round in 0..<5 {
            let database = "round\(round).sqlite"
            let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
                for _ in 0..<8 { group.addTask { try await cli.run("--db", database, "goal", "list", "--json") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.status == 0 }, "round \(round): \(results.map(\.stderr).filter { !$0.isEmpty })")
            #expect(results.allSatisfy { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]" })
        }
    }

    @Test("errors are one line on stderr starting with 'error: ', with the documented exit codes")
    func exitCodes() async throws {
        try await cli.run("init")
        try await cli.run("asset", "add", "Cash", "--currency", "USD")
        let cases: [([String], Int32, String)] = [
            (["tx", "add", "Cash", "abc"], 64, "'abc' is not an amount"),
            (["tx", "add", "Cash", "1.001"], 64, "more decimals"),
            (["tx", "add", "Cash", "10", "--bogus"], 64, "--bogus"),
            (["tx", "add", "Cash", "0"], 65, "zero"),
            (["tx", "add", "Nowhere", "1"], 65, "no asset named 'Nowhere'"),
            (["asset", "add", "Other", "--currency", "XYZ"], 64, "unknown currency 'XYZ'"),
            (["asset", "add", "cash", "--currency", "EUR"], 65, "already exists"),
            (["goal", "add", "G", "--currency", "USD", "--target", "x"], 64, "'x' is not an amount"),
            (["goal", "add", "G", "--currency", "USD", "--target", "10", "--deadline", "2027-02-30"], 64, "not a date"),
            (["goal", "show", "Nope"], 65, "no goal named"),
            (["tx", "show", "manual:nope"], 65, "no transaction with txid"),
            (["tx", "list", "--status", "weird"], 64, "--status"),
            (["tx", "list", "--since", "last week"], 64, "not a date"),
            (["tx", "delete"], 64, "missing"),
        ]
        for (arguments, status, fragment) in cases {
            let result = try await cli.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.lowercased().contains(fragment.lowercased()), "\(arguments): \(result.stderr)")
        }
    }

    @Test("a withdrawal is written as a negative amount; --json prints exactly one document")
    func withdrawals() async throws {
        try await cli.run("init")
        try await cli.run("asset", "add", "Cash", "--currency", "EUR")
        try await cli.run("tx", "add", "Cash", "100", "--date", "2026-11-01")
        let withdrawal = try await cli.run("tx", "add", "Cash", "-20.25", "--note", "groceries", "--json")
        #expect(withdrawal.status == 0)
        let document = try #require(withdrawal.object)
        #expect(document["amount"] as? Int == -2025)
        #expect(document["direction"] as? String == "outgoing")
        #expect(document["note"] as? String == "groceries")
        #expect(withdrawal.stderr.isEmpty)
        let shown = try #require(try await cli.run("asset", "show", "Cash", "--json").object)
        #expect(shown["balance"] as? Int == 7975)
        #expect(Set(shown.keys).isSuperset(of: ["name", "currency", "kind", "balance", "allocated", "unallocated", "shortfall", "allocations"]))
    }

    @Test("edit and delete through the CLI, with the message naming the later transaction")
    func editDelete() async throws {
        try await cli.run("init")
        try await cli.run("asset", "add", "Cash", "--currency", "USD")
        let deposit = try #require(try await cli.run("tx", "add", "Cash", "100", "--date", "2026-11-01", "--json").object)
        let withdrawal = try #require(try await cli.run("tx", "add", "Cash", "-80", "--date", "2026-11-05", "--json").object)
        let depositID = try #require(deposit["txid"] as? String)
        let withdrawalID = try #require(withdrawal["txid"] as? String)
        let refused = try await cli.run("tx", "delete", depositID)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains(withdrawalID))
        let edited = try await cli.run("tx", "edit", withdrawalID, "--amount", "-60", "--json")
        #expect(edited.status == 0)
        #expect(edited.object?["amount"] as? Int == -6000)
        #expect(try await cli.run("tx", "delete", withdrawalID).status == 0)
        #expect(try await cli.run("tx", "delete", depositID).status == 0)
        #expect(try await cli.run("tx", "list", "--json").objects?.isEmpty == true)
    }

    @Test("--config and --db work before or after the command; the config is found through WALLETWATCH_CONFIG")
    func globalOptions() async throws {
        let other = folder.file("elsewhere.toml")
        #expect(try await cli.run("init", "--config", other).status == 0)
        #expect(try await cli.run("--config", other, "asset", "add", "Cash", "--currency", "USD").status == 0)
        #expect(try await cli.run("asset", "list", "--config", other, "--json").objects?.count == 1)
        // Without init, the default config is missing: a clear runtime error.
        let missing = try await cli.run("asset", "list")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("walletwatch init"))
        // --db alone works without any config file (none named, none in the usual places).
        var bare = cli
        bare.environment["WALLETWATCH_CONFIG"] = nil
        let database = folder.file("alone.sqlite")
        #expect(try await bare.run("--db", database, "asset", "add", "Box", "--currency", "JPY").status == 0)
        #expect(try await bare.run("asset", "list", "--db", database, "--json").objects?.first?["currency"] as? String == "JPY")
    }

    @Test("help texts teach with examples and exit 0")
    func help() async throws {
        let help = try await cli.run("tx", "add", "--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("Examples:"))
        #expect(try await cli.run("--version").stdout.contains("0."))
    }

    @Test("a malformed config is reported with its file and key, and nothing runs")
    func badConfig() async throws {
        folder.write("walletwatch.toml", "balance_cache_seconds = \"soon\"\n")
        let result = try await cli.run("asset", "list")
        #expect(result.status == 1)
        #expect(result.stderr.contains(folder.file("walletwatch.toml")))
        #expect(result.stderr.contains("balance_cache_seconds"))
    }
}
