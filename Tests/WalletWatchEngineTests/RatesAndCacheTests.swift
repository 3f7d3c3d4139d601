import Foundation
import Synchronization
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchEngine
import WalletWatchSim
import WalletWatchStore

@Suite("Rates from the price APIs, and the progress cache")
struct RatesAndCacheTests {
    func engine(_ world: SimulatedWorld, provider: RatesConfig.Provider, now: String = "2026-11-21T12:00:00Z") -> Engine {
        let base = world.engine(now: now, sources: [])
        var config = base.config
        config.rates = RatesConfig(provider: provider, url: provider == .coingecko ? world.simulator.coingeckoURL : world.simulator.mempoolURL,
                                   currencies: [.usd, .eur], maxAgeSeconds: 300)
        return Engine(storage: base.storage, config: config, clock: base.clock, http: base.http, logger: base.logger)
    }

    @Test("coingecko and mempool prices are stored as exact decimals, latest per pair plus history", arguments: [RatesConfig.Provider.coingecko, .mempool])
    func providers(provider: RatesConfig.Provider) async throws {
        let world = try await SimulatedWorld()
        let rates = try await engine(world, provider: provider).rates.refresh().rates
        #expect(Set(rates.map(\.pair.description)) == ["BTC/USD", "BTC/EUR"])
        #expect(rates.first { $0.pair.quote == .usd }?.rate == Decimal(string: "65000"))
        #expect(rates.allSatisfy { $0.provider == provider.rawValue && $0.fetchedAt == .at("2026-11-21T12:00:00Z") })
        let table = RateTable(rates: try world.database.latestRates(), now: .at("2026-11-21T12:00:00Z"), maxAgeSeconds: 300)
        #expect(table.convert(Money(minorUnits: 100_000_000, currency: .btc), to: .eur)?.minorUnits == 6_000_000)
    }

    @Test("the store refuses a rate that is not positive from any caller, and stores nothing of that batch", arguments: ["-1", "0", "-0.5"])
    func storeRefusesNonPositive(value: String) async throws {
        let world = try await SimulatedWorld()
        let usd = ExchangeRate(pair: CurrencyPair(base: .btc, quote: .usd), rate: 65000, fetchedAt: .at("2026-11-21T12:00:00Z"), provider: "test")
        let bad = ExchangeRate(pair: CurrencyPair(base: .btc, quote: .eur), rate: try #require(Decimal(string: value)), fetchedAt: .at("2026-11-21T12:00:00Z"), provider: "test")
        await #expect(throws: Refusal.self) { try await world.database.saveRates([usd, bad]) }
        #expect(try world.database.latestRates().isEmpty)
        let imported = ImportedRate(line: 2, pair: bad.pair, instant: .at("2026-11-20T00:00:00Z"), rate: bad.rate)
        #expect(throws: Refusal.self) { try world.database.importRates([imported], replace: false, source: "prices.csv") }
        #expect(try world.database.latestRates().isEmpty)
    }

    @Test("stale rates are refreshed when needed; when the provider fails they are used, marked stale, and it is said")
    func staleness() async throws {
        let world = try await SimulatedWorld()
        let needed: Set<CurrencyPair> = [CurrencyPair(base: .btc, quote: .usd)]
        _ = await engine(world, provider: .coingecko).rates.current(for: needed)
        await world.simulator.resetRequests()
        _ = await engine(world, provider: .coingecko, now: "2026-11-21T12:04:00Z").rates.current(for: needed)
        #expect(await world.simulator.requests(matching: "/coingecko").isEmpty, "fresh rates are not fetched again")

        await world.simulator.setPrices(PriceTable(["USD": 70000, "EUR": 64000]))
        let refreshed = await engine(world, provider: .coingecko, now: "2026-11-21T12:06:00Z").rates.current(for: needed)
        #expect(refreshed.table.quote(from: .btc, to: .usd)?.rate == 70000)
        #expect(refreshed.warnings.isEmpty)

        try await world.simulator.addFault(.status(503), at: "/coingecko/*")
        let stale = await engine(world, provider: .coingecko, now: "2026-11-21T12:30:00Z").rates.current(for: needed)
        #expect(stale.table.quote(from: .btc, to: .usd)?.stale == true)
        #expect(stale.warnings.first?.contains("could not be refreshed") == true)
        #expect(stale.warnings.first?.contains("24m ago") == true)
        let missing = await engine(world, provider: .coingecko, now: "2026-11-21T12:30:00Z").rates.current(for: [CurrencyPair(base: .btc, quote: .jpy)])
        #expect(missing.table.quote(from: .btc, to: .jpy) == nil, "no rate is nil, never zero")
    }

    @Test("the executing month's status is reused until a transaction or allocation changes or a rate moves more than 1%")
    func cache() async throws {
        let world = try await SimulatedWorld()
        let database = world.database
        let base = engine(world, provider: .coingecko, now: "2026-11-02T00:00:00Z")
        _ = try database.createManualAsset(name: "Cash", currency: .usd, now: .at("2026-11-01T00:00:00Z"))
        _ = try database.createGoal(name: "House", currency: .usd, target: 1_000_000, deadline: Day("2027-06-30"), now: .at("2026-11-01T00:00:00Z"))
        try await database.saveRates([ExchangeRate(pair: CurrencyPair(base: .btc, quote: .usd), rate: 65000, fetchedAt: .at("2026-11-02T00:00:00Z"), provider: "test")])
        _ = try await base.month.start()
        let later = engine(world, provider: .coingecko, now: "2026-11-03T00:00:00Z")
        _ = try await later.month.status()
        _ = try await later.month.status()
        #expect(later.month.progressCache.computations == 1)
        _ = try database.addManualTransaction(assetName: "Cash", amount: "10", date: .at("2026-11-02T12:00:00Z"), note: nil, now: .at("2026-11-03T00:00:00Z"))
        _ = try await later.month.status()
        #expect(later.month.progressCache.computations == 2, "a new transaction drops the cache")
        try await database.saveRates([ExchangeRate(pair: CurrencyPair(base: .btc, quote: .usd), rate: 65500, fetchedAt: .at("2026-11-03T00:00:00Z"), provider: "test")])
        _ = try await later.month.status()
        #expect(later.month.progressCache.computations == 2, "a move under 1% keeps it")
        try await database.saveRates([ExchangeRate(pair: CurrencyPair(base: .btc, quote: .usd), rate: 67000, fetchedAt: .at("2026-11-03T00:00:00Z"), provider: "test")])
        _ = try await later.month.status()
        #expect(later.month.progressCache.computations == 3, "a move over 1% drops it")

        // The same engine (a daemon) as time passes: once the rates are older than
        // max_age_seconds the status says so, as a fresh process would; a refresh under 1%
        // then makes them fresh again. A BTC wallet's deposit makes the month need BTC/USD.
        _ = try database.createManualAsset(name: "Stack", currency: .btc, now: .at("2026-11-03T00:00:00Z"))
        _ = try database.allocate(assetName: "Stack", assignments: [("House", "100%")], now: .at("2026-11-03T00:00:00Z"))
        _ = try database.addManualTransaction(assetName: "Stack", amount: "0.01", date: .at("2026-11-03T00:00:30Z"), note: nil, now: .at("2026-11-03T00:00:30Z"))
        let clock = Mutex(Instant.at("2026-11-03T00:01:00Z"))
        var config = later.config
        config.rates.maxAgeSeconds = 300
        let daemon = Engine(storage: Storage(database), config: config, clock: WallClock { clock.withLock { $0 } }, http: later.http, logger: later.logger)
        #expect(try await daemon.month.status(refreshRates: .never).ratesStale == false)
        clock.withLock { $0 = .at("2026-11-03T00:10:00Z") }
        #expect(try await daemon.month.status(refreshRates: .never).ratesStale == true, "the rates grew stale")
        try await database.saveRates([ExchangeRate(pair: CurrencyPair(base: .btc, quote: .usd), rate: 67100, fetchedAt: .at("2026-11-03T00:10:00Z"), provider: "test")])
        let refreshed = try await daemon.month.status(refreshRates: .never)
        #expect(refreshed.ratesStale == false && refreshed.ratesAsOf == .at("2026-11-03T00:10:00Z"), "refreshed under 1%")
    }
}

@Suite("The daemon's schedule")
struct SchedulerTests {
    @Test("after failures the wait grows to 2, 4, then 8 intervals, and a success resets it")
    func backoff() {
        #expect((0...6).map { Scheduler.backoffFactor(failures: $0) } == [1, 2, 4, 8, 8, 8, 8])
    }

    @Test("jitter keeps every wait within 10% of its interval")
    func jitter() {
        for _ in 0..<500 {
            let wait = Scheduler.jittered(.seconds(60))
            #expect(wait >= .seconds(54) && wait <= .seconds(66))
        }
    }
}
