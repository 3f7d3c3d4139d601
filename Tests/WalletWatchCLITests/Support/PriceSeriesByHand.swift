import Foundation
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// The simulator's daily price series, computed here by hand from its published definition
/// (Config/README.md, `PriceSeries`) in integer cents, never through the code under test:
/// a currency priced P on the reference day costs, `n` days before it,
/// `P × (2500 − n) / 2500 × (100 + n mod 7) / 100`, rounded to the cent half up.
enum PriceSeriesByHand {
    /// The demo's reference day (scenario `now`, else 2026-11-21).
    static let referenceDay = Day("2026-11-21")!

    /// The price in cents on `day` of a currency priced `cents` on the reference day.
    static func cents(_ cents: Int64, on day: Day, reference: Day = referenceDay) -> Int64 {
        let n = reference.daysSinceEpoch - day.daysSinceEpoch
        let wave = ((n % 7) + 7) % 7
        let numerator = cents * (2500 - n) * (100 + wave)
        let denominator: Int64 = 250_000
        return (2 * numerator + denominator) / (2 * denominator)
    }

    /// `numerator / denominator` rounded half to even (denominator > 0).
    static func halfEven(_ numerator: Int64, _ denominator: Int64) -> Int64 {
        let quotient = numerator / denominator, remainder = numerator % denominator
        let twice = 2 * abs(remainder)
        if twice < denominator { return quotient }
        let away = quotient + (numerator < 0 ? -1 : 1)
        if twice > denominator { return away }
        return quotient % 2 == 0 ? quotient : away
    }

    /// The value in cents of `sats` at a BTC price of `cents` (half to even, as SPEC 2 says).
    static func value(sats: Int64, cents: Int64) -> Int64 {
        halfEven(sats * cents, 100_000_000)
    }

    /// A decimal as stored (`64350.25`) from cents.
    static func decimal(cents: Int64) -> Decimal {
        Decimal(cents) / 100
    }
}

/// A simulator on a fixed clock and a folder whose config asks `provider` for `currencies`.
final class BackfillWorld: @unchecked Sendable {
    let simulator: Simulator
    let folder = TemporaryDirectory("walletwatch-backfill")
    let now: String
    var database: String { folder.file("walletwatch.sqlite") }

    init(provider: String, currencies: [String] = ["USD", "EUR"], now: String = "2026-11-21T12:00:00Z", http: String = "") async throws {
        self.now = now
        simulator = try await Simulator.start(scenario: Scenario(now: SimTime(iso8601: now)!, prices: PriceTable(["USD": 65_000, "EUR": 60_000])))
        let url = switch provider {
        case "coingecko": simulator.coingeckoURL
        case "mempool": simulator.mempoolURL
        default: ""
        }
        folder.write("walletwatch.toml", """
            [rates]
            provider = "\(provider)"
            \(url.isEmpty ? "" : "url = \"\(url)\"")
            currencies = [\(currencies.map { "\"\($0)\"" }.joined(separator: ", "))]
            \(provider == "static" ? "[rates.static]\n\"BTC/USD\" = \"60000\"" : "")
            [http]
            retries = 2
            \(http)
            """)
    }

    func cli() -> CLIRunner { CLIRunner(folder: folder, now: now) }

    /// The daily prices stored for BTC/`quote`, by day, with their provider.
    func daily(_ quote: String) async throws -> [Day: (rate: Decimal, provider: String)] {
        let text = try await sqlite(database, """
            SELECT substr(fetched_at, 1, 10), rate, provider FROM rate_history
            WHERE base = 'BTC' AND quote = '\(quote)' AND substr(fetched_at, 11) = 'T00:00:00.000Z' ORDER BY fetched_at
            """)
        var result: [Day: (Decimal, String)] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "|").map(String.init)
            result[Day(fields[0])!] = (Decimal(string: fields[1], locale: Locale(identifier: "en_US_POSIX"))!, fields[2])
        }
        return result
    }

    /// Rows of the rate history.
    func historyCount() async throws -> Int {
        Int(try await sqlite(database, "SELECT COUNT(*) FROM rate_history")) ?? -1
    }

    /// Requests to the history endpoints.
    func historyRequests() async -> [RequestRecord] {
        await simulator.requests().filter { $0.path.hasSuffix("market_chart/range") || $0.path.hasSuffix("historical-price") }
    }

    deinit {
        let simulator = self.simulator
        Task { await simulator.stop() }
    }
}
