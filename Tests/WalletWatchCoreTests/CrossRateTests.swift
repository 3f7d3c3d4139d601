import Foundation
import Testing
import TestSupport
@testable import WalletWatchCore

/// Rates between any two currencies (SPEC.md sections 7 and 25): the stored pair, its inverse, or
/// a cross through one or two intermediates, BTC first, then the preferred (display) currency,
/// then the others by code. Every expected figure is computed here by hand, in integers, from
/// the stored rates: never by the code under test.
@Suite("Cross rates between any two currencies")
struct CrossRateTests {
    static let now = Instant.at("2026-11-21T12:00:00Z")
    static let gbp = try! Currency(code: "GBP")
    static let chf = try! Currency(code: "CHF")

    static func rate(_ pair: String, _ value: String, _ at: String = "2026-11-21T11:59:00Z", provider: String = "test") -> ExchangeRate {
        ExchangeRate(pair: CurrencyPair(pair)!, rate: Decimal(string: value)!, fetchedAt: .at(at), provider: provider)
    }

    /// `numerator / denominator` rounded half to even, by hand (denominator > 0).
    static func halfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        let quotient = numerator / denominator, remainder = numerator % denominator
        let twice = 2 * (remainder < 0 ? -remainder : remainder)
        if twice < denominator { return quotient }
        let away = quotient + (numerator < 0 ? -1 : 1)
        if twice > denominator { return away }
        return quotient % 2 == 0 ? quotient : away
    }

    @Test("EUR to ETH from ETH/USD, BTC/USD and BTC/EUR: a cross through two currencies, multiplied first, rounded once")
    func euroToEther() throws {
        let table = RateTable(rates: [Self.rate("ETH/USD", "3000"), Self.rate("BTC/USD", "65000"), Self.rate("BTC/EUR", "60000")],
                              now: Self.now, maxAgeSeconds: 300, preferred: [.usd])
        // 100.00 EUR = 10,000 cents. 1 EUR = 1/60000 BTC = 65000/60000 USD = 65000/(60000 x 3000) ETH;
        // in wei (18 decimals) from cents (2): x 10^16.
        let wei = Self.halfEven(10_000 * 10_000_000_000_000_000 * 65_000, 60_000 * 3_000)
        #expect(wei == 36_111_111_111_111_111, "0.036111... ETH, the 0.111 wei rounded away")
        #expect(table.convert(Money(minorUnits: 10_000, currency: .eur), to: .eth) == Money(minorUnits: wei, currency: .eth))
        // And back: 1 ETH in EUR cents = 3000 x 60000 / 65000 EUR = 2769.230769... EUR.
        let cents = Self.halfEven(100 * 3_000 * 60_000, 65_000)
        #expect(cents == 276_923)
        #expect(table.convert(Money(minorUnits: 1_000_000_000_000_000_000, currency: .eth), to: .eur)?.minorUnits == cents)
        let quote = try #require(table.quote(from: .eur, to: .eth))
        #expect(quote.asOf == .at("2026-11-21T11:59:00Z") && !quote.stale)
    }

    @Test("three legs, one rounding: an exact half of a cent goes to the even cent", arguments: [(2, 2), (6, 4), (10, 8), (14, 10)])
    func oneRounding(cents: Int, expected: Int) throws {
        // EUR reaches CHF only through BTC and USD: EUR -> BTC -> USD -> CHF.
        let table = RateTable(rates: [Self.rate("BTC/EUR", "50000"), Self.rate("BTC/USD", "60000"), Self.rate("CHF/USD", "1.6")],
                              now: Self.now, maxAgeSeconds: 300)
        // 1 EUR = 60000 / (50000 x 1.6) CHF = 0.75 CHF: 2 cents are 1.5, 6 are 4.5, 10 are 7.5, 14 are 10.5.
        let byHand = Self.halfEven(Int128(cents) * 60_000 * 10, 50_000 * 16)
        #expect(byHand == Int128(expected))
        #expect(table.convert(Money(minorUnits: Int128(cents), currency: .eur), to: Self.chf)?.minorUnits == byHand)
    }

    @Test("routes are tried BTC first, then the preferred (display) currency, then the others by code")
    func order() throws {
        let viaEUR = [Self.rate("GBP/EUR", "1.2"), Self.rate("CHF/EUR", "1")]          // 1 GBP = 1.2 CHF
        let viaUSD = [Self.rate("GBP/USD", "1.3"), Self.rate("CHF/USD", "1.25")]       // 1 GBP = 1.04 CHF
        let viaBTC = [Self.rate("BTC/GBP", "50000"), Self.rate("BTC/CHF", "55000")]    // 1 GBP = 1.1 CHF
        func francs(_ rates: [ExchangeRate], preferred: [Currency]) -> Int128? {
            RateTable(rates: rates, now: Self.now, maxAgeSeconds: 300, preferred: preferred)
                .convert(Money(minorUnits: 10_000, currency: Self.gbp), to: Self.chf)?.minorUnits
        }
        #expect(francs(viaEUR + viaUSD + viaBTC, preferred: [.usd]) == 11_000, "BTC first")
        #expect(francs(viaEUR + viaUSD, preferred: [.usd]) == 10_400, "then the preferred currency, though EUR sorts first")
        #expect(francs(viaEUR + viaUSD, preferred: []) == 12_000, "then by code")
        #expect(francs(viaUSD + [Self.rate("GBP/CHF", "1.5")], preferred: [.usd]) == 15_000, "the stored pair before any cross")
        #expect(francs(viaUSD + [Self.rate("CHF/GBP", "0.8")], preferred: [.usd]) == 12_500, "or its inverse")
    }

    @Test("a missing leg is no rate, never zero; a stale leg makes the cross stale")
    func missingAndStale() throws {
        let table = RateTable(rates: [Self.rate("ETH/USD", "3000", "2026-11-21T11:00:00Z"), Self.rate("BTC/USD", "65000")],
                              now: Self.now, maxAgeSeconds: 300)
        #expect(table.convert(Money(minorUnits: 10_000, currency: .eur), to: .eth) == nil, "EUR has no pair at all")
        let quote = try #require(table.quote(from: .btc, to: .eth))
        #expect(quote.stale && quote.asOf == .at("2026-11-21T11:00:00Z"), "the oldest leg's time")
        // 1 BTC = 65000 / 3000 ETH = 21.666... ETH.
        #expect(table.convert(Money(minorUnits: 100_000_000, currency: .btc), to: .eth)?.minorUnits
                == Self.halfEven(100_000_000 * 10_000_000_000 * 65_000, 3_000))
    }

    @Test("a price set by hand is never stale; a provider's is after max_age_seconds")
    func manualNeverStale() {
        let table = RateTable(rates: [Self.rate("BTC/USD", "65000", "2026-01-01T00:00:00Z", provider: ExchangeRate.manualProvider),
                                      Self.rate("BTC/EUR", "60000", "2026-01-01T00:00:00Z", provider: "coingecko")],
                              now: Self.now, maxAgeSeconds: 300)
        #expect(table.quote(from: .btc, to: .usd)?.stale == false)
        #expect(table.quote(from: .btc, to: .eur)?.stale == true)
    }

    @Test("over time: each leg at its date; a pair without a rate yet is no leg; the direct pair wins once it has one")
    func history() throws {
        let history = RateHistory([
            Self.rate("BTC/EUR", "50000", "2026-10-01T00:00:00Z"),
            Self.rate("BTC/USD", "60000", "2026-10-01T00:00:00Z"),
            Self.rate("ETH/USD", "2000", "2026-10-05T00:00:00Z"),
            Self.rate("BTC/USD", "64000", "2026-10-10T00:00:00Z"),
            Self.rate("ETH/EUR", "1500", "2026-10-20T00:00:00Z"),
        ], preferred: [.usd])
        #expect(history.quote(from: .eur, to: .eth, at: .at("2026-10-04T00:00:00Z")) == nil, "no ETH rate before 2026-10-05")
        // 2026-10-06: 1 ETH = 2000 USD = 2000/60000 BTC = 2000 x 50000 / 60000 EUR.
        let first = try #require(history.quote(from: .eth, to: .eur, at: .at("2026-10-06T00:00:00Z")))
        #expect(RateTable.convert(Money(minorUnits: 1_000_000_000_000_000_000, currency: .eth), to: .eur, quote: first)?.minorUnits
                == Self.halfEven(100 * 2_000 * 50_000, 60_000))
        // 2026-10-11: BTC/USD moved to 64000.
        let second = try #require(history.quote(from: .eth, to: .eur, at: .at("2026-10-11T00:00:00Z")))
        #expect(RateTable.convert(Money(minorUnits: 1_000_000_000_000_000_000, currency: .eth), to: .eur, quote: second)?.minorUnits
                == Self.halfEven(100 * 2_000 * 50_000, 64_000))
        #expect(history.quote(from: .eth, to: .eur, at: .at("2026-10-21T00:00:00Z"))?.rate == 1500, "the stored pair once it exists")

        // The instants at which ETH in EUR changes: the legs' rates, never BTC/EUR's for BTC in USD.
        #expect(history.changeInstants(from: .eth, to: .eur) == ["2026-10-01", "2026-10-05", "2026-10-10", "2026-10-20"].map { Instant.at("\($0)T00:00:00Z") })
        #expect(history.changeInstants(from: .btc, to: .usd) == ["2026-10-01", "2026-10-10"].map { Instant.at("\($0)T00:00:00Z") })
    }

    @Test("the pairs a history between some currencies must hold: the direct pairs and every leg of a cross")
    func pairsNeeded() {
        let stored: Set<CurrencyPair> = Set(["BTC/USD", "BTC/EUR", "ETH/USD", "BTC/GBP", "SOL/CHF"].map { CurrencyPair($0)! })
        #expect(RateHistory.pairsNeeded(among: [.eth, .eur], stored: stored) == Set(["BTC/USD", "BTC/EUR", "ETH/USD"].map { CurrencyPair($0)! }))
        #expect(RateHistory.pairsNeeded(among: [.btc, .usd], stored: stored) == [CurrencyPair("BTC/USD")!])
    }
}
