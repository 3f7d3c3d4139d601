import Foundation
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

/// The rate history as the portfolio figures read it, and imported prices against it.
@Suite("Rate history in the store")
struct RateHistoryStoreTests {
    static let btcUSD = CurrencyPair(base: .btc, quote: .usd)
    static let usdBTC = CurrencyPair(base: .usd, quote: .btc)

    func fetched(_ rate: Decimal, _ at: String) -> ExchangeRate {
        ExchangeRate(pair: Self.btcUSD, rate: rate, fetchedAt: .at(at), provider: "static")
    }

    func history(_ database: AppDatabase) throws -> RateHistory {
        RateHistory(try database.portfolioData(rateCurrencies: [.btc, .usd]).rates)
    }

    /// A static provider stores the same BTC/USD every few minutes; an imported USD/BTC price
    /// sits between two of them. After the last fetch the fetched rate is the newer one and
    /// must win, even though the rows before it repeat the same rate.
    @Test("of a run of equal rates the last row is kept, so the pair stays as fresh as it is")
    func runsKeepTheirLastRow() async throws {
        let database = try AppDatabase.inMemory()
        for at in ["2026-11-01T00:00:00Z", "2026-11-01T00:05:00Z", "2026-11-01T00:10:00Z", "2026-11-01T00:15:00Z"] {
            try await database.saveRates([fetched(13, at)])
        }
        _ = try database.importRates([ImportedRate(line: 2, pair: Self.usdBTC, instant: .at("2026-11-01T00:07:00Z"), rate: Decimal(string: "0.05")!)],
                                     replace: false, source: "prices.csv")
        let history = try history(database)
        #expect(history.quote(from: .btc, to: .usd, at: .at("2026-11-01T00:04:00Z"))?.rate == 13)
        #expect(history.quote(from: .btc, to: .usd, at: .at("2026-11-01T00:08:00Z"))?.rate == 20, "the import is the newest at 00:08")
        #expect(history.quote(from: .btc, to: .usd, at: .at("2026-11-01T00:20:00Z"))?.rate == 13, "the last fetch is newer than the import")
        // The rows between the first and the last of the run are left out.
        #expect(try database.portfolioData(rateCurrencies: [.btc, .usd]).rates.filter { $0.pair == Self.btcUSD }.count == 2)
    }

    @Test("a price imported in one direction is a duplicate of the same date in the other; --replace swaps it")
    func inverseDuplicates() throws {
        let database = try AppDatabase.inMemory()
        let day = Instant.at("2026-10-01T00:00:00Z")
        _ = try database.importRates([ImportedRate(line: 2, pair: Self.btcUSD, instant: day, rate: 10)], replace: false, source: "a.csv")
        let inverse = ImportedRate(line: 2, pair: Self.usdBTC, instant: day, rate: Decimal(string: "0.08")!)
        let refusal = #expect(throws: Refusal.self) {
            try database.importRates([inverse], replace: false, source: "b.csv")
        }
        #expect(refusal?.description.contains("line 2: USD/BTC on 2026-10-01") == true, "\(refusal?.description ?? "")")
        #expect(try history(database).quote(from: .btc, to: .usd, at: day)?.rate == 10, "nothing imported")

        let result = try database.importRates([inverse], replace: true, source: "b.csv")
        #expect(result.replaced == 1)
        #expect(try history(database).quote(from: .btc, to: .usd, at: day)?.rate == Decimal(string: "12.5"))
        // The replaced BTC/USD row was that pair's latest rate: it is gone with it.
        #expect(try database.latestRates().map(\.pair) == [Self.usdBTC])
    }
}
