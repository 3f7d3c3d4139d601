import Foundation
import Testing
import WalletWatchSim

/// The simulated CoinGecko serves every coin of its price table: several coins in one
/// `simple/price` request, each coin's own daily history at `coins/{id}/market_chart/range`, and
/// the faults on one coin's path only. mempool.space stays bitcoin's.
@Suite("Simulator: prices of several coins")
struct CoinPriceAPITests {
    static let scenario = Scenario(now: Fixture.at("2026-11-21T12:00:00Z"), prices: PriceTable(
        ["USD": 65_000, "EUR": 60_000],
        coins: ["ethereum": ["USD": 3_000, "EUR": 2_770], "usd-coin": ["USD": 1, "EUR": Decimal(string: "0.92")!]]))
    static let reference: Int64 = 1_795_219_200 // 2026-11-21T00:00:00Z

    @Test("simple/price: every id asked that the table has, in the order asked, with the currencies asked; an unknown id is left out")
    func severalCoins() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            let answer = try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=usd-coin,bitcoin,no-such-coin,ethereum&vs_currencies=eur,usd,xyz")
            #expect(answer.status == 200)
            #expect(answer.text == #"{"usd-coin":{"eur":0.92,"usd":1},"bitcoin":{"eur":60000,"usd":65000},"ethereum":{"eur":2770,"usd":3000}}"#)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=no-such-coin&vs_currencies=usd").text == "{}")
            let mempool = try #require(try await HTTPProbe.get(sim.mempoolURL + "/v1/prices").object)
            #expect(mempool["USD"] as? Int == 65_000, "mempool serves bitcoin")
        }
    }

    @Test("market_chart/range per coin: ether's series anchored on its own price; an unknown coin is 404, a currency it lacks 400")
    func coinHistory() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            let from = Self.reference - 100 * 86_400
            let chart = try await HTTPProbe.get(sim.coingeckoURL + "/coins/ethereum/market_chart/range?vs_currency=usd&from=\(from)&to=\(Self.reference)")
            #expect(chart.status == 200)
            let points = PriceHistoryAPITests.chart(chart.text)
            #expect(points.count == 101, "the 101 days from `from` through `to` (now is later)")
            for (index, point) in points.enumerated() {
                #expect(point.0 == (from + Int64(index) * 86_400) * 1000)
                #expect(point.1 == PriceHistoryAPITests.cents(300_000, daysBefore: 100 - Int64(index)), "day \(index)")
            }
            let unknown = try await HTTPProbe.get(sim.coingeckoURL + "/coins/no-such-coin/market_chart/range?vs_currency=usd&from=\(from)&to=\(Self.reference)")
            #expect(unknown.status == 404 && unknown.text.contains("coin not found"))
            let gbp = try await HTTPProbe.get(sim.coingeckoURL + "/coins/ethereum/market_chart/range?vs_currency=gbp&from=\(from)&to=\(Self.reference)")
            #expect(gbp.status == 400)
        }
    }

    @Test("a fault on one coin's history path leaves the other coins answering")
    func faultOnOneCoin() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            try await sim.addFault(.status(429, retryAfter: 1), at: "/coingecko/api/v3/coins/ethereum/*")
            let range = "market_chart/range?vs_currency=usd&from=\(Self.reference - 86_400)&to=\(Self.reference)"
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/coins/ethereum/" + range).status == 429)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/coins/bitcoin/" + range).status == 200)
            #expect(await sim.requests(matching: "/coingecko/api/v3/coins/").map(\.fault) == ["status 429", nil])
        }
    }

    @Test("the control API: PUT replaces bitcoin's prices and the coins; PATCH changes only what it names")
    func control() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            _ = try await HTTPProbe.control("PATCH", sim.controlURL + "/prices", json: #"{"coins":{"ethereum":{"usd":3100.5}}}"#)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin,ethereum&vs_currencies=usd,eur").text
                    == #"{"bitcoin":{"usd":65000,"eur":60000},"ethereum":{"usd":3100.5,"eur":2770}}"#)
            _ = try await HTTPProbe.control("PUT", sim.controlURL + "/prices", json: #"{"USD":70000,"coins":{"solana":{"USD":150}}}"#)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin,ethereum,solana&vs_currencies=usd").text
                    == #"{"bitcoin":{"usd":70000},"solana":{"usd":150}}"#)
        }
    }
}
