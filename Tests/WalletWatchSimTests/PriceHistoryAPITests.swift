import Foundation
import Testing
import WalletWatchSim

/// The history endpoints of the simulated price APIs, over HTTP, against the series' definition
/// computed here by hand in integer cents: P x (2500 - n) / 2500 x (100 + n mod 7) / 100, rounded
/// half up, n days before the reference day (2026-11-21 here).
@Suite("Simulator: price history endpoints")
struct PriceHistoryAPITests {
    static let reference: Int64 = 1_795_219_200 // 2026-11-21T00:00:00Z
    static let scenario = Scenario(now: Fixture.at("2026-11-21T12:00:00Z"), prices: PriceTable(["USD": 65_000, "EUR": 60_000]))

    static func cents(_ base: Int64, daysBefore n: Int64) -> Int64 {
        let numerator = base * (2500 - n) * (100 + ((n % 7) + 7) % 7), denominator: Int64 = 250_000
        return (2 * numerator + denominator) / (2 * denominator)
    }

    /// A JSON number as cents (`64350.25` -> 6435025), read from the text, never through a float.
    static func cents(_ text: String) -> Int64 {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]).padding(toLength: 2, withPad: "0", startingAt: 0) : "00"
        return Int64(parts[0])! * 100 + Int64(fraction)!
    }

    /// `[[ms, price], ...]` of a CoinGecko body as (ms, cents).
    static func chart(_ text: String) -> [(Int64, Int64)] {
        let prices = text.components(separatedBy: "\"prices\":[")[1].components(separatedBy: "]]")[0] + "]"
        return prices.dropFirst().components(separatedBy: "],[").map { pair in
            let values = pair.replacingOccurrences(of: "]", with: "").split(separator: ",")
            return (Int64(values[0])!, cents(String(values[1])))
        }
    }

    @Test("CoinGecko: daily points at 00:00 UTC beyond 90 days plus now, hourly up to 90 days; older than 365 days refused")
    func coingecko() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            let from = Self.reference - 120 * 86_400
            let daily = try await HTTPProbe.get(sim.coingeckoURL + "/coins/bitcoin/market_chart/range?vs_currency=usd&from=\(from)&to=\(Self.reference + 86_399)")
            #expect(daily.status == 200)
            let points = Self.chart(daily.text)
            #expect(points.count == 122, "121 days and now")
            for (index, point) in points.dropLast().enumerated() {
                #expect(point.0 == (from + Int64(index) * 86_400) * 1000)
                #expect(point.1 == Self.cents(6_500_000, daysBefore: 120 - Int64(index)), "day \(index)")
            }
            #expect(daily.text.contains("\"market_caps\":[[") && daily.text.contains("\"total_volumes\":[["))

            let hourly = Self.chart(try await HTTPProbe.get(sim.coingeckoURL + "/coins/bitcoin/market_chart/range?vs_currency=eur&from=\(Self.reference - 86_400)&to=\(Self.reference - 1)").text)
            #expect(hourly.count == 24)
            let day = Self.cents(6_000_000, daysBefore: 1)
            for (hour, point) in hourly.enumerated() {
                let numerator = day * Int64(10_000 + hour), denominator: Int64 = 10_000
                #expect(point.1 == (2 * numerator + denominator) / (2 * denominator), "hour \(hour)")
            }

            let old = try await HTTPProbe.get(sim.coingeckoURL + "/coins/bitcoin/market_chart/range?vs_currency=usd&from=\(Self.reference - 400 * 86_400)&to=\(Self.reference)")
            #expect(old.status == 401 && old.text.contains("10012") && old.text.contains("365 days"))
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/coins/bitcoin/market_chart/range?vs_currency=usd&from=1").status == 400)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/coins/bitcoin/market_chart/range?vs_currency=xyz&from=\(from)&to=\(Self.reference)").status == 400)
        }
    }

    @Test("mempool: every day of the series newest first with the currency and USD; one point with timestamp")
    func mempool() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            let all = try await HTTPProbe.get(sim.mempoolURL + "/v1/historical-price?currency=EUR")
            let prices = try #require(all.object?["prices"] as? [[String: Any]])
            #expect(prices.count == 2401)
            #expect(all.text.hasPrefix("{\"prices\":[{\"time\":\(Self.reference),\"EUR\":60000,\"USD\":65000}"))
            for n in [0, 1, 6, 7, 365, 2400] {
                let point = prices[n]
                #expect(point["time"] as? Int == Int(Self.reference - Int64(n) * 86_400))
                let text = all.text.components(separatedBy: "{\"time\":\(Self.reference - Int64(n) * 86_400),")[1].components(separatedBy: "}")[0]
                #expect(text == "\"EUR\":\(Self.show(Self.cents(6_000_000, daysBefore: Int64(n)))),\"USD\":\(Self.show(Self.cents(6_500_000, daysBefore: Int64(n))))", "n = \(n)")
            }
            #expect((all.object?["exchangeRates"] as? [String: Any])?["USDEUR"] as? Double == 0.92)

            let one = try #require(try await HTTPProbe.get(sim.mempoolURL + "/v1/historical-price?currency=USD&timestamp=\(Self.reference - 86_400 + 1)").object)
            let point = try #require((one["prices"] as? [[String: Any]])?.first)
            #expect(point["time"] as? Int == Int(Self.reference - 86_400) && point.count == 2)
            let before = try #require(try await HTTPProbe.get(sim.mempoolURL + "/v1/historical-price?currency=USD&timestamp=1000").object)
            #expect((before["prices"] as? [[String: Any]])?.first?["time"] as? Int == 1_279_497_600)
        }
    }

    /// Cents as the simulator writes a price: trailing zeros dropped.
    static func show(_ cents: Int64) -> String {
        var text = "\(cents / 100).\(String(format: "%02lld", cents % 100))"
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
