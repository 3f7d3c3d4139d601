import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// Bad answers from the price history APIs, replayed over HTTP by the simulator's recorded-body
/// fault to the built binary: unusable points are skipped, counted in one warning and never
/// stored; an answer without the documented shape is refused naming the field, and nothing of
/// it is stored.
@Suite("CLI: rates backfill, bad answers")
struct BackfillBadInputCLITests {
    static func ms(_ day: String, plus seconds: Int64 = 0) -> Int64 { Day(day)!.startInstant.millisecondsSinceEpoch + seconds * 1000 }
    static func unix(_ day: String, plus seconds: Int64 = 0) -> Int64 { ms(day, plus: seconds) / 1000 }

    @Test("coingecko: null, zero, negative, non-numeric, a repeated and an out-of-order timestamp are skipped and counted once")
    func coingeckoBadPoints() async throws {
        let world = try await BackfillWorld(provider: "coingecko", currencies: ["USD"])
        let body = """
            {"prices":[[\(Self.ms("2026-11-14")),61000.5],[\(Self.ms("2026-11-15")),null],[\(Self.ms("2026-11-16")),0],
            [\(Self.ms("2026-11-17")),-5],[\(Self.ms("2026-11-18")),"abc"],[\(Self.ms("2026-11-19")),62000],
            [\(Self.ms("2026-11-19")),62500],[\(Self.ms("2026-11-18", plus: 3600)),61800],[\(Self.ms("2026-11-20")),63000],
            [\(Self.ms("2026-11-21")),64000]],"market_caps":[],"total_volumes":[]}
            """
        try await world.simulator.addFault(.recorded(body: body), at: "/coingecko/api/v3/coins/bitcoin/market_chart/range")
        let result = try await world.cli().run("rates", "backfill", "--since", "2026-11-14", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.object?["skipped_points"] as? Int == 6)
        let pair = try #require((result.object?["pairs"] as? [[String: Any]])?.first)
        #expect(pair["days_added"] as? Int == 4 && pair["days_missing"] as? Int == 4)
        let skippedWarnings = result.stderr.split(separator: "\n").filter { $0.contains("skipped 6 unusable price point(s)") }
        #expect(skippedWarnings.count == 1, "\(result.stderr)")
        for reason in ["prices[1] BTC/USD: null", "prices[2] BTC/USD: zero", "prices[3] BTC/USD: negative (-5)", "prices[4] BTC/USD: not a number ('abc')"] {
            #expect(result.stderr.contains(reason), "\(reason): \(result.stderr)")
        }
        let stored = try await world.daily("USD")
        #expect(stored.mapValues(\.rate) == [Day("2026-11-14")!: Decimal(string: "61000.5")!, Day("2026-11-19")!: 62000,
                                             Day("2026-11-20")!: 63000, Day("2026-11-21")!: 64000])
        #expect(try await world.historyCount() == 4, "a skipped point was stored")
    }

    @Test("mempool: -1, a missing price, a string, a repeated and an out-of-order timestamp (its answers are newest first) are skipped")
    func mempoolBadPoints() async throws {
        let world = try await BackfillWorld(provider: "mempool", currencies: ["USD"])
        let body = """
            {"prices":[{"time":\(Self.unix("2026-11-21")),"USD":64000},{"time":\(Self.unix("2026-11-20")),"USD":-1},
            {"time":\(Self.unix("2026-11-20")),"USD":63000},{"time":\(Self.unix("2026-11-20")),"USD":63100},
            {"time":\(Self.unix("2026-11-21", plus: 60)),"USD":65000},{"time":\(Self.unix("2026-11-19"))},
            {"time":\(Self.unix("2026-11-18")),"USD":"62000"},{"time":\(Self.unix("2026-11-17")),"USD":61000}],
            "exchangeRates":{"USDEUR":0.92}}
            """
        try await world.simulator.addFault(.recorded(body: body), at: "/mempool/api/v1/historical-price")
        let result = try await world.cli().run("rates", "backfill", "--since", "2026-11-17", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.object?["skipped_points"] as? Int == 5, "\(result.stderr)")
        #expect(result.stderr.contains("prices[1] BTC/USD: negative (-1)") && result.stderr.contains("prices[5] BTC/USD: no USD price"), "\(result.stderr)")
        #expect(result.stderr.contains("repeats the one before") && result.stderr.contains("out of order"), "\(result.stderr)")
        let stored = try await world.daily("USD")
        #expect(stored.mapValues(\.rate) == [Day("2026-11-21")!: 64000, Day("2026-11-20")!: 63000, Day("2026-11-17")!: 61000])
        #expect(try await world.historyCount() == 3)
    }

    @Test("an answer without the documented shape is refused naming the field; nothing of it is stored", arguments: [
        ("coingecko", #"{"market_caps":[]}"#, "required field 'prices' is missing"),
        ("coingecko", #"{"prices":{"a":1}}"#, "field prices: expected an array, found an object"),
        ("coingecko", #"{"prices":[[1795219200000,63000],[1795305600000,64000,1]]}"#, "field prices[1][2]"),
        ("coingecko", #"{"prices":[{"t":1}]}"#, "field prices[0]: expected an array"),
        ("coingecko", #"{"prices":[["x",5]]}"#, "field prices[0][0]: expected an integer"),
        ("mempool", #"{"prices":[{"time":1795219200,"USD":63000},{"USD":5}]}"#, "field prices[1]: required field 'time' is missing"),
        ("mempool", #"[1,2]"#, "expected an object"),
        ("mempool", #"{"prices":[{"time":-3,"USD":5}]}"#, "field prices[0].time"),
    ])
    func refusedShape(provider: String, body: String, named: String) async throws {
        let world = try await BackfillWorld(provider: provider, currencies: ["USD"])
        try await world.simulator.addFault(.recorded(body: body), at: provider == "coingecko" ? "/coingecko/*" : "/mempool/*")
        let result = try await world.cli().run("rates", "backfill", "--since", "2026-11-14")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(named), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try await world.historyCount() == 0)
    }
}
