import Foundation
import Testing
import TestSupport

/// SPEC.md section 25: any currency, exact amounts to 18 decimals and beyond 64 bits, through
/// the built binary. JSON integers beyond 2^53 are read from stdout's text: a JSON parser that
/// reads numbers as doubles (Foundation's does) would round them.
@Suite("CLI: any currency, exact amounts beyond 64 bits")
struct ExactAmountsCLITests {
    let folder = TemporaryDirectory("walletwatch-exact")
    var cli: CLIRunner { CLIRunner(folder: folder) }

    /// `"key": value` as the pretty JSON prints it, with the value's exact text.
    func field(_ key: String, _ value: String) -> String { "\"\(key)\": \(value)" }

    @Test("an ETH amount of 12.345678901234567891 comes back exactly in JSON and CSV, shortened and marked in tables")
    func etherToTheWei() async throws {
        try await cli.run("init")
        let added = try await cli.run("asset", "add", "Ledger ETH", "--currency", "ETH")
        #expect(added.status == 0, "\(added.stderr)")
        let deposit = try await cli.run("tx", "add", "Ledger ETH", "12.345678901234567891", "--date", "2026-11-02T10:00:00Z")
        #expect(deposit.status == 0, "\(deposit.stderr)")
        // 12.345678901234567891 ETH is 12345678901234567891 wei: above Int64.max (9223372036854775807).
        let listed = try await cli.run("tx", "list", "--json")
        #expect(listed.stdout.contains(field("amount", "12345678901234567891")), "\(listed.stdout)")
        #expect(listed.stdout.contains(field("currency", "\"ETH\"")))
        let shown = try await cli.run("asset", "show", "Ledger ETH", "--json")
        #expect(shown.stdout.contains(field("balance", "12345678901234567891")), "\(shown.stdout)")
        let table = try await cli.run("tx", "list")
        #expect(table.stdout.contains("12.34567890…"), "a table shows 8 decimals and marks the cut: \(table.stdout)")
        #expect(!table.stdout.contains("12.345678901234567891"))
        let csv = try await cli.run("export", "csv")
        #expect(csv.stdout.contains("12.345678901234567891"), "\(csv.stdout)")
        // A withdrawal in wei and in gwei, exact too.
        #expect(try await cli.run("tx", "add", "Ledger ETH", "-21gwei", "--date", "2026-11-03T10:00:00Z").status == 0)
        #expect(try await cli.run("tx", "add", "Ledger ETH", "-1wei", "--date", "2026-11-03T11:00:00Z").status == 0)
        let after = try await cli.run("asset", "show", "Ledger ETH", "--json")
        #expect(after.stdout.contains(field("balance", "12345678880234567890")), "\(after.stdout)")
    }

    @Test("input with more decimals than the currency has, or a unit of another currency, is refused naming it")
    func refusedInput() async throws {
        try await cli.run("init")
        try await cli.run("asset", "add", "Ledger ETH", "--currency", "ETH")
        try await cli.run("asset", "add", "Stable", "--currency", "USDC")
        let tooPrecise = try await cli.run("tx", "add", "Ledger ETH", "0.1234567890123456789")
        #expect(tooPrecise.status == 64)
        #expect(tooPrecise.stderr.contains("'0.1234567890123456789' has more decimals than ETH allows (18 decimal places)"), "\(tooPrecise.stderr)")
        let usdcWei = try await cli.run("tx", "add", "Stable", "5000wei")
        #expect(usdcWei.status == 64)
        #expect(usdcWei.stderr.contains("wei are only for 18-decimal currencies"), "\(usdcWei.stderr)")
        let ethSats = try await cli.run("tx", "add", "Ledger ETH", "1500sat")
        #expect(ethSats.status == 64 && ethSats.stderr.contains("sat are only for BTC amounts"), "\(ethSats.stderr)")
        #expect(try await cli.run("tx", "list", "--json").objects?.isEmpty == true, "nothing was written")
    }

    @Test("a token balance of 10^24 units and a goal of 32 ETH are kept exactly")
    func largeAmounts() async throws {
        try await cli.run("init")
        try await cli.run("asset", "add", "Stash", "--currency", "DAI")
        #expect(try await cli.run("tx", "add", "Stash", "1000000", "--date", "2026-11-02T10:00:00Z").status == 0)
        let shown = try await cli.run("asset", "show", "Stash", "--json")
        #expect(shown.stdout.contains(field("balance", "1000000000000000000000000")), "\(shown.stdout)")
        let goal = try await cli.run("goal", "add", "Staking", "--currency", "ETH", "--target", "32", "--json")
        #expect(goal.status == 0, "\(goal.stderr)")
        let staking = try await cli.run("goal", "show", "Staking", "--json")
        #expect(staking.stdout.contains(field("target", "32000000000000000000")), "\(staking.stdout)")
    }

    @Test("seed 002's story as typed: ETH moves from 70% on Emergency Fund to 60%, freeing 10% for Gadgets")
    func seed002() async throws {
        try await cli.run("init")
        #expect(try await cli.run("asset", "add", "Ledger ETH", "--currency", "ETH").status == 0)
        #expect(try await cli.run("tx", "add", "Ledger ETH", "2.5", "--date", "2026-11-02T10:00:00Z").status == 0)
        #expect(try await cli.run("goal", "add", "Emergency Fund", "--currency", "USD", "--target", "10000").status == 0)
        #expect(try await cli.run("allocate", "Ledger ETH", "Emergency Fund=70%").status == 0)
        #expect(try await cli.run("goal", "add", "Gadgets", "--currency", "USD", "--target", "1500").status == 0)
        let moved = try await cli.run("allocate", "Ledger ETH", "Emergency Fund=60%", "Gadgets=10%")
        #expect(moved.status == 0, "\(moved.stderr)")
        let shown = try await cli.run("asset", "show", "Ledger ETH", "--json")
        // 2.5 ETH: 60% is 1.5 ETH, 10% is 0.25 ETH, exactly, in wei.
        #expect(shown.stdout.contains(field("amount", "1500000000000000000")), "\(shown.stdout)")
        #expect(shown.stdout.contains(field("amount", "250000000000000000")), "\(shown.stdout)")
        #expect(shown.stdout.contains(field("unallocated", "750000000000000000")), "\(shown.stdout)")
        let history = try #require(try await cli.run("asset", "history", "Ledger ETH", "--json").objects)
        #expect(history.map { $0["goal"] as? String } == ["Emergency Fund", "Emergency Fund", "Gadgets"])
    }

    @Test("currency list, add, remove: built-in coins, ISO money and units of one's own")
    func currencies() async throws {
        try await cli.run("init")
        let listed = try #require(try await cli.run("currency", "list", "--json").objects)
        let byCode = Dictionary(uniqueKeysWithValues: listed.map { ($0["code"] as? String ?? "", $0) })
        #expect(byCode["BTC"]?["kind"] as? String == "builtin" && byCode["BTC"]?["coingecko_id"] as? String == "bitcoin")
        #expect(byCode["ETH"]?["decimals"] as? Int == 18 && byCode["USDC"]?["decimals"] as? Int == 6)
        #expect(byCode["USD"]?["kind"] as? String == "iso" && byCode["JPY"]?["decimals"] as? Int == 0)

        let gold = try await cli.run("currency", "add", "GOLD", "--decimals", "3", "--name", "Gold in grams", "--json")
        #expect(gold.status == 0, "\(gold.stderr)")
        #expect(gold.object?["kind"] as? String == "custom")
        #expect(try await cli.run("asset", "add", "Vault", "--currency", "gold").status == 0)
        #expect(try await cli.run("tx", "add", "Vault", "12.345", "--date", "2026-11-02").status == 0)
        #expect(try await cli.run("asset", "show", "Vault", "--json").object?["balance"] as? Int == 12_345)
        #expect(try await cli.run("tx", "add", "Vault", "1.2345").status == 64, "3 decimals, as added")

        let inUse = try await cli.run("currency", "remove", "GOLD")
        #expect(inUse.status == 65 && inUse.stderr.contains("in use by asset 'Vault'"), "\(inUse.stderr)")
        let iso = try await cli.run("currency", "add", "USD", "--decimals", "2")
        #expect(iso.status == 65 && iso.stderr.contains("'USD' is ISO 4217 money"), "\(iso.stderr)")
        let builtIn = try await cli.run("currency", "add", "eth", "--decimals", "18")
        #expect(builtIn.status == 65 && builtIn.stderr.contains("'ETH' is a built-in coin"), "\(builtIn.stderr)")
        #expect(try await cli.run("currency", "add", "G", "--decimals", "2").status == 64)
        #expect(try await cli.run("currency", "add", "SILVER", "--decimals", "19").status == 64)
        #expect(try await cli.run("currency", "add", "SILVER", "--decimals", "2", "--coingecko", "Not An Id").status == 64)
        #expect(try await cli.run("currency", "add", "SILVER", "--decimals", "3").status == 0)
        #expect(try await cli.run("currency", "remove", "silver").status == 0)
        let unknown = try await cli.run("asset", "add", "Silver stash", "--currency", "SILVER")
        #expect(unknown.status == 64 && unknown.stderr.contains("walletwatch currency add SILVER --decimals N"), "\(unknown.stderr)")
    }
}
