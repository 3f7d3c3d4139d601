import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import WalletWatchCore

/// Portfolio figures (SPEC.md section 13) against hand computations.
@Suite("Portfolio figures: average cost, cost basis, gains, time-weighted return")
struct PortfolioCalculatorTests {
    static let btc = Int128(100_000_000)

    static func rates(_ entries: [(String, Decimal)], pair: String = "BTC/USD") -> RateHistory {
        RateHistory(entries.map { ExchangeRate(pair: CurrencyPair(pair)!, rate: $0.1, fetchedAt: .at($0.0), provider: "test") })
    }

    static func asset(_ movements: [(String, Int128)]) -> PortfolioAsset { asset(1, .btc, movements) }

    static func asset(_ id: Int64, _ currency: Currency, _ movements: [(String, Int128)]) -> PortfolioAsset {
        PortfolioAsset(id: id, name: "A\(id)", currency: currency, movements: movements.map { .init(amount: $1, date: .at($0)) })
    }

    /// A return in millionths, as reports print it (0.125 -> 125000): per-period ratios such
    /// as 280/240 are not exact in decimal, the printed figure is.
    static func millionths(_ value: Decimal?) -> Int128? {
        value.flatMap { Rounding.halfEven($0 * 1_000_000) }
    }

    /// The seed's worked example with BTC priced in USD: buy 10 @ 10, buy 10 @ 12, sell 5 @ 14,
    /// price now 13. Average cost (100 + 120) / 20 = 11; cost basis 15 x 11 = 165; value
    /// 15 x 13 = 195; unrealized 30; realized 5 x (14 - 11) = 15.
    @Test("the average-cost worked example: average cost 11, cost basis 165, gains to the cent")
    func workedExample() {
        let history = Self.rates([("2026-10-01T00:00:00Z", 10), ("2026-10-02T00:00:00Z", 12), ("2026-10-03T00:00:00Z", 14),
                                  ("2026-11-01T00:00:00Z", 13)])
        let asset = Self.asset([("2026-10-01T12:00:00Z", 10 * Self.btc), ("2026-10-02T12:00:00Z", 10 * Self.btc),
                                ("2026-10-03T12:00:00Z", -5 * Self.btc)])
        let figures = PortfolioCalculator.figures(of: asset, pricer: Pricer(history: history, display: .usd), now: .at("2026-11-21T12:00:00Z"))
        #expect(figures.quantity == 15 * Self.btc)
        #expect(figures.averageCost == 1100)
        #expect(figures.costBasis == 16500)
        #expect(figures.value == 19500)
        #expect(figures.unrealizedGain == 3000)
        #expect(figures.realizedGain == 1500)
        // One asset's time-weighted return is its price's return: 13 / 10 - 1.
        #expect(Self.millionths(figures.timeWeightedReturn) == 300_000)
        #expect(figures.missingPrice == nil)
    }

    /// Two periods: 1 BTC bought at 100 (value 100); the price rises to 120 and 1 BTC more is
    /// bought: r1 = (240 - 100 - 120) / 100 = 0.2; the price falls to 90: r2 = (180 - 240) / 240
    /// = -0.25. TWR = 1.2 x 0.75 - 1 = -0.1, where the simple return on the 220 paid is -18.2%.
    @Test("a two-period time-weighted return chains the sub-periods between cash flows")
    func twoPeriods() throws {
        let history = Self.rates([("2026-01-01T00:00:00Z", 100), ("2026-02-01T00:00:00Z", 120), ("2026-03-01T00:00:00Z", 90)])
        let asset = Self.asset([("2026-01-01T00:00:00Z", Self.btc), ("2026-02-01T00:00:00Z", Self.btc)])
        let twr = try PortfolioCalculator.timeWeightedReturn(of: [asset], pricer: Pricer(history: history, display: .usd),
                                                             now: .at("2026-03-02T00:00:00Z")).get()
        #expect(Self.millionths(twr) == -100_000)
    }

    /// Cash (USD) and BTC together. Jan 1: 100 USD and 1 BTC at 100 (value 200). Feb 1: BTC at
    /// 150, value before the flow 250: r1 = 0.25; 50 USD more (300). Now: BTC at 120: 270,
    /// r2 = 270 / 300 - 1 = -0.1. TWR = 1.25 x 0.9 - 1 = 0.125.
    @Test("the portfolio's return chains the sum of the assets' values: 0.125")
    func portfolio() throws {
        let history = Self.rates([("2026-01-01T00:00:00Z", 100), ("2026-02-01T00:00:00Z", 150), ("2026-03-01T00:00:00Z", 120)])
        let cash = Self.asset(1, .usd, [("2026-01-01T00:00:00Z", 10_000), ("2026-02-01T00:00:00Z", 5_000)])
        let stack = Self.asset(2, .btc, [("2026-01-01T00:00:00Z", Self.btc)])
        let pricer = Pricer(history: history, display: .usd)
        let twr = try PortfolioCalculator.timeWeightedReturn(of: [cash, stack], pricer: pricer, now: .at("2026-03-02T00:00:00Z")).get()
        #expect(Self.millionths(twr) == 125_000)
        // Cash on its own neither gains nor loses.
        let cashFigures = PortfolioCalculator.figures(of: cash, pricer: pricer, now: .at("2026-03-02T00:00:00Z"))
        #expect(cashFigures.timeWeightedReturn == 0)
        #expect(cashFigures.averageCost == 100)
        #expect(cashFigures.costBasis == 15_000)
        #expect(cashFigures.unrealizedGain == 0)
    }

    @Test("a full withdrawal ends the holding; the next deposit starts a new period and a new average")
    func withdrawAllThenDeposit() throws {
        let history = Self.rates([("2026-01-01T00:00:00Z", 100), ("2026-02-01T00:00:00Z", 200), ("2026-03-01T00:00:00Z", 300),
                                  ("2026-04-01T00:00:00Z", 330)])
        let asset = Self.asset([("2026-01-01T00:00:00Z", Self.btc), ("2026-02-01T00:00:00Z", -Self.btc), ("2026-03-01T00:00:00Z", Self.btc)])
        let figures = PortfolioCalculator.figures(of: asset, pricer: Pricer(history: history, display: .usd), now: .at("2026-04-02T00:00:00Z"))
        // Periods: 100 -> 200 (r = 1), nothing held, 300 -> 330 (r = 0.1): 2 x 1.1 - 1 = 1.2.
        #expect(Self.millionths(figures.timeWeightedReturn) == 1_200_000)
        // The sale realized 1 x (200 - 100); the basis fell to 0 and the new coin costs 300.
        #expect(figures.realizedGain == 10_000)
        #expect(figures.averageCost == 30_000)
        #expect(figures.costBasis == 30_000)
        #expect(figures.value == 33_000)
        // Realized + unrealized = what the asset brought in: -100 + 200 - 300 + 330 = 130.
        #expect(figures.realizedGain! + figures.unrealizedGain! == 13_000)
        // Sold out, nothing is held: no average cost, a basis of exactly 0.
        let soldOut = PortfolioCalculator.figures(of: asset, pricer: Pricer(history: history, display: .usd), now: .at("2026-02-15T00:00:00Z"))
        #expect(soldOut.quantity == 0 && soldOut.averageCost == nil && soldOut.costBasis == 0 && soldOut.realizedGain == 10_000)
    }

    /// Buy 10 @ 10, sell 5 @ 14, buy 10 @ 12, price now 13. At the sale the average is 10: it
    /// realizes 5 x (14 - 10) = 20 and leaves a basis of 50; the second buy adds 120: basis 170
    /// for 15 (average 11.33), unrealized 195 - 170 = 25. Together 45, what the asset brought
    /// in: 195 now + 70 received - 220 paid.
    @Test("a deposit after a partial withdrawal joins the remaining basis; the sale's gain stays what it was")
    func depositAfterAPartialWithdrawal() {
        let history = Self.rates([("2026-10-01T00:00:00Z", 10), ("2026-10-02T00:00:00Z", 14), ("2026-10-03T00:00:00Z", 12),
                                  ("2026-11-01T00:00:00Z", 13)])
        let asset = Self.asset([("2026-10-01T12:00:00Z", 10 * Self.btc), ("2026-10-02T12:00:00Z", -5 * Self.btc),
                                ("2026-10-03T12:00:00Z", 10 * Self.btc)])
        let figures = PortfolioCalculator.figures(of: asset, pricer: Pricer(history: history, display: .usd), now: .at("2026-11-21T12:00:00Z"))
        #expect(figures.realizedGain == 2000)
        #expect(figures.averageCost == 1133)
        #expect(figures.costBasis == 17000 && figures.value == 19500 && figures.unrealizedGain == 2500)
        #expect(figures.realizedGain! + figures.unrealizedGain! == 19500 + 7000 - 22000)
    }

    /// Issue 21's report: deposit 1 BTC at 10,000 USD, withdraw 0.5 at 20,000 (gain 5,000.00),
    /// then in May deposit 1 more at 40,000. Averaged over every deposit, the March gain became
    /// -2,500.00; it must stay 5,000.00.
    @Test("a realized gain never changes when a later deposit comes in")
    func laterDepositLeavesTheRealizedGain() {
        let history = Self.rates([("2026-01-01T00:00:00Z", 10_000), ("2026-03-01T00:00:00Z", 20_000), ("2026-05-01T00:00:00Z", 40_000)])
        let before = Self.asset([("2026-01-10T00:00:00Z", Self.btc), ("2026-03-10T00:00:00Z", -Self.btc / 2)])
        let after = Self.asset([("2026-01-10T00:00:00Z", Self.btc), ("2026-03-10T00:00:00Z", -Self.btc / 2), ("2026-05-10T00:00:00Z", Self.btc)])
        let pricer = Pricer(history: history, display: .usd)
        let now = Instant.at("2026-06-01T00:00:00Z")
        #expect(PortfolioCalculator.figures(of: before, pricer: pricer, now: now).realizedGain == 500_000)
        let figures = PortfolioCalculator.figures(of: after, pricer: pricer, now: now)
        #expect(figures.realizedGain == 500_000)
        // Basis: 5,000 left of the first coin + 40,000 = 45,000 for 1.5 BTC: 30,000 a BTC.
        #expect(figures.costBasis == 4_500_000 && figures.averageCost == 3_000_000)
        let unrealized: Int128 = 6_000_000 - 4_500_000
        #expect(figures.unrealizedGain == unrealized)
    }

    @Test("a withdrawal of more than is held leaves cost and realized gain unknown, never invented")
    func overdrawnHistory() {
        let history = Self.rates([("2026-01-01T00:00:00Z", 100)])
        let asset = Self.asset([("2026-01-02T00:00:00Z", Self.btc), ("2026-01-03T00:00:00Z", -2 * Self.btc), ("2026-01-04T00:00:00Z", 3 * Self.btc)])
        let figures = PortfolioCalculator.figures(of: asset, pricer: Pricer(history: history, display: .usd), now: .at("2026-01-05T00:00:00Z"))
        #expect(figures.quantity == 2 * Self.btc && figures.value == 20_000)
        #expect(figures.realizedGain == nil && figures.costBasis == nil && figures.averageCost == nil && figures.unrealizedGain == nil)
    }

    // MARK: - Properties of the moving average

    /// A random history: up to 12 deposits and withdrawals on distinct days (a withdrawal never
    /// takes more than is held), each day with its own price, and a price now.
    static let histories = Gen.int(in: 0...1_000_000).array(of: 40...40).map { numbers -> (PortfolioAsset, RateHistory) in
        var position = 0
        func next(_ bound: Int) -> Int {
            defer { position += 1 }
            return numbers[position % numbers.count] % bound
        }
        let start = Instant.at("2026-01-01T00:00:00Z")
        var held: Int128 = 0
        var movements: [PortfolioAsset.Movement] = []
        var rates: [ExchangeRate] = []
        for day in 0..<(1 + next(12)) {
            let date = start.adding(seconds: Int64(day) * 86_400 + 3_600)
            rates.append(ExchangeRate(pair: CurrencyPair("BTC/USD")!, rate: Decimal(1_000 + next(99_000)) + Decimal(next(100)) / 100,
                                      fetchedAt: start.adding(seconds: Int64(day) * 86_400), provider: "test"))
            let withdraw = held > 0 && next(3) == 0
            let amount = withdraw ? -Int128(1 + next(Int(min(held, 2_000_000_000)))) : Int128(1 + next(300_000_000))
            held += amount
            movements.append(.init(amount: amount, date: date))
        }
        rates.append(ExchangeRate(pair: CurrencyPair("BTC/USD")!, rate: Decimal(1_000 + next(99_000)), fetchedAt: start.adding(seconds: 40 * 86_400),
                                  provider: "test"))
        return (PortfolioAsset(id: 1, name: "A", currency: .btc, movements: movements), RateHistory(rates))
    }

    static let now = Instant.at("2026-03-01T00:00:00Z")

    @Test("property: a deposit after the last withdrawal leaves the realized gain as it was")
    func realizedGainIsFixed() async {
        await propertyCheck(count: 300, input: Self.histories, Gen.int(in: 1...500_000_000)) { history, amount in
            let (asset, rates) = history
            let pricer = Pricer(history: rates, display: .usd)
            let before = PortfolioCalculator.figures(of: asset, pricer: pricer, now: Self.now)
            let later = PortfolioAsset(id: 1, name: "A", currency: .btc,
                                       movements: asset.movements + [.init(amount: Int128(amount), date: .at("2026-02-20T00:00:00Z"))])
            #expect(PortfolioCalculator.figures(of: later, pricer: pricer, now: Self.now).realizedGain == before.realizedGain)
        }
    }

    @Test("property: realized + unrealized gain = value + withdrawals at their rates - deposits at theirs")
    func gainsAddUp() async {
        await propertyCheck(count: 300, input: Self.histories) { history in
            let (asset, rates) = history
            let pricer = Pricer(history: rates, display: .usd)
            let figures = PortfolioCalculator.figures(of: asset, pricer: pricer, now: Self.now)
            // Worked out here from the movements and the rates alone, exactly, then rounded once.
            var flows: Decimal = 0
            for movement in asset.movements {
                flows -= Decimal(minorUnits: movement.amount) * pricer.unitPrice(.btc, at: movement.date)!
            }
            let net = Rounding.halfEven(Decimal(minorUnits: asset.quantity) * pricer.unitPrice(.btc, at: Self.now)! + flows)!
            guard let realized = figures.realizedGain, let unrealized = figures.unrealizedGain else {
                Issue.record("every price is known, so every figure must be")
                return
            }
            // Realized, value and cost basis are each rounded once (half a minor unit each), and so
            // is the exact figure here: they agree within 2 minor units.
            #expect(abs(realized + unrealized - net) <= 2)
        }
    }

    @Test("transactions dated after now count in no figure")
    func futureTransactions() {
        let history = Self.rates([("2026-10-01T00:00:00Z", 10), ("2026-10-05T00:00:00Z", 20)])
        let asset = Self.asset([("2026-10-01T12:00:00Z", 10 * Self.btc), ("2026-10-05T12:00:00Z", -4 * Self.btc),
                                ("2026-10-06T12:00:00Z", 10 * Self.btc)])
        let figures = PortfolioCalculator.figures(of: asset, pricer: Pricer(history: history, display: .usd), now: .at("2026-10-03T00:00:00Z"))
        #expect(figures.quantity == 10 * Self.btc)
        #expect(figures.value == 10_000 && figures.averageCost == 1000 && figures.costBasis == 10_000)
        #expect(figures.realizedGain == 0)
    }

    @Test("a deposit dated before the first known rate makes cost figures unknown, never zero")
    func missingRate() {
        let history = Self.rates([("2026-02-01T00:00:00Z", 100)])
        let asset = Self.asset([("2026-01-15T00:00:00Z", Self.btc)])
        let figures = PortfolioCalculator.figures(of: asset, pricer: Pricer(history: history, display: .usd), now: .at("2026-03-01T00:00:00Z"))
        #expect(figures.value == 10_000)
        #expect(figures.averageCost == nil)
        #expect(figures.costBasis == nil)
        #expect(figures.unrealizedGain == nil)
        #expect(figures.timeWeightedReturn == nil)
        #expect(figures.missingPrice == MissingPrice(pair: CurrencyPair("BTC/USD")!, instant: .at("2026-01-15T00:00:00Z")))
    }

    @Test("an asset without transactions is worth 0 with no average cost and no return")
    func empty() {
        let figures = PortfolioCalculator.figures(of: Self.asset([]), pricer: Pricer(history: RateHistory([]), display: .usd), now: .at("2026-03-01T00:00:00Z"))
        #expect(figures.value == 0 && figures.costBasis == 0 && figures.realizedGain == 0)
        #expect(figures.averageCost == nil && figures.timeWeightedReturn == nil && figures.missingPrice == nil)
    }

    @Test("the rate at D is the latest at or before D, of the pair or its inverse, or across BTC")
    func rateAtDate() throws {
        let history = RateHistory([
            ExchangeRate(pair: CurrencyPair("BTC/USD")!, rate: 60000, fetchedAt: .at("2026-01-01T00:00:00Z"), provider: "t"),
            ExchangeRate(pair: CurrencyPair("USD/BTC")!, rate: Decimal(string: "0.00002")!, fetchedAt: .at("2026-01-02T00:00:00Z"), provider: "t"),
            ExchangeRate(pair: CurrencyPair("BTC/EUR")!, rate: 40000, fetchedAt: .at("2026-01-01T00:00:00Z"), provider: "t"),
        ])
        #expect(history.quote(from: .btc, to: .usd, at: .at("2025-12-31T23:59:59.999Z")) == nil)
        #expect(history.quote(from: .btc, to: .usd, at: .at("2026-01-01T00:00:00Z"))?.rate == 60000)
        // The inverse stored later wins from then on: 1 / 0.00002 = 50000.
        #expect(history.quote(from: .btc, to: .usd, at: .at("2026-01-03T00:00:00Z"))?.rate == 50000)
        // EUR -> USD across BTC on Jan 1: 60000 / 40000.
        #expect(history.quote(from: .eur, to: .usd, at: .at("2026-01-01T12:00:00Z"))?.rate == Decimal(string: "1.5"))
    }

    @Test("the value timeline has a point at every transaction and rate date; the daily grid one per day")
    func timelines() {
        let history = Self.rates([("2026-01-01T00:00:00Z", 100), ("2026-01-03T06:00:00Z", 110)])
        let asset = Self.asset([("2026-01-02T12:00:00Z", Self.btc)])
        let pricer = Pricer(history: history, display: .usd)
        let events = ValueTimeline.events(of: [asset], pricer: pricer, now: .at("2026-01-04T00:00:00Z"))
        #expect(events.map(\.instant) == [.at("2026-01-02T12:00:00Z"), .at("2026-01-03T06:00:00Z"), .at("2026-01-04T00:00:00Z")])
        #expect(events.map(\.total) == [10_000, 11_000, 11_000])
        let daily = ValueTimeline.daily(of: [asset], pricer: pricer, now: .at("2026-01-04T00:00:00Z"))
        #expect(daily.map(\.instant) == [.at("2026-01-02T23:59:59.999Z"), .at("2026-01-03T23:59:59.999Z"), .at("2026-01-04T00:00:00Z")])
        #expect(daily.map(\.total) == [10_000, 11_000, 11_000])
    }

    @Test("a goal's funded value over time follows the allocation history and the rates at each date")
    func goalTimeline() {
        let history = Self.rates([("2026-01-01T00:00:00Z", 100), ("2026-01-03T00:00:00Z", 200)])
        let stack = Self.asset([("2026-01-01T00:00:00Z", 2 * Self.btc)])
        let changes = [GoalTimeline.TargetChange(assetID: 1, goalID: 7, amount: Self.btc, timestamp: .at("2026-01-02T00:00:00Z"))]
        let instants: [Instant] = [.at("2026-01-01T12:00:00Z"), .at("2026-01-02T12:00:00Z"), .at("2026-01-03T12:00:00Z")]
        let funded = GoalTimeline.funded(goals: [(id: 7, currency: .usd)], assets: [stack], history: changes, rates: history, at: instants)
        #expect(funded[7] == [0, 10_000, 20_000])
    }
}
