import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchEngine
import WalletWatchSim
import WalletWatchStore

/// The daemon's price history (SPEC.md section 17): backfilled at start, topped up on each new
/// UTC day, a failure logged and retried later without stopping anything else.
@Suite("Daemon: daily price backfill")
struct DaemonBackfillTests {
    @Test("backfills at start after a failed first attempt, then tops up the new day when the clock reaches it")
    func backfillRetryAndNewDay() async throws {
        // The simulator's clock is already in 2026-11-22; walletwatch's starts on 2026-11-21.
        let world = try await SimulatedWorld(scenario: Scenario(now: SimTime(iso8601: "2026-11-22T06:00:00Z")!,
                                                                prices: PriceTable(["USD": 65_000, "EUR": 60_000])))
        let now = Mutex(Instant.at("2026-11-21T12:00:00Z"))
        let base = world.engine(sources: [])
        var config = base.config
        config.rates = RatesConfig(provider: .mempool, url: world.simulator.mempoolURL, currencies: [.usd], maxAgeSeconds: 300)
        let engine = Engine(storage: base.storage, config: config, clock: WallClock { now.withLock { $0 } }, http: base.http, logger: base.logger)
        _ = try engine.ledger.addManualAsset(name: "Stack", currency: .btc)
        _ = try engine.ledger.addTransaction(asset: "Stack", amount: "0.01", date: .at("2026-11-18T10:00:00Z"), note: nil)
        // retries = 1: two 503s fail the first backfill.
        try await world.simulator.addFault(.status(503), at: "/mempool/api/v1/historical-price", times: 2)

        let scheduler = Scheduler(engine: engine, backfillTiming: .init(check: .milliseconds(50), retry: .milliseconds(100), maxRetry: .milliseconds(400)))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [scheduler], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        let pair = CurrencyPair(base: .btc, quote: .usd)
        func days(through last: String) throws -> Int { try world.database.dailyRateDays(pair, from: Day("2026-11-18")!, through: Day(last)!).count }

        #expect(await eventually(within: .seconds(30)) { world.logs.entries.contains { $0.message.contains("rates backfill failed; retrying later") } })
        #expect(try await eventually(within: .seconds(30)) { try days(through: "2026-11-21") == 4 }, "the retry did not fill 2026-11-18 through 2026-11-21")
        let afterStart = await world.simulator.requests(matching: "/mempool/api/v1/historical-price").count
        #expect(afterStart == 3, "two failed attempts, one retry")

        now.withLock { $0 = .at("2026-11-22T03:00:00Z") }
        #expect(try await eventually(within: .seconds(30)) { try days(through: "2026-11-22") == 5 }, "the new day was not topped up")
        #expect(await world.simulator.requests(matching: "/mempool/api/v1/historical-price").count == afterStart + 1)
        let rates = try world.database.rateHistory(currencies: [.btc, .usd], from: .at("2026-11-22T00:00:00Z"), through: .at("2026-11-22T00:00:00Z"))
        // The reference day of this scenario is 2026-11-22: its price is the table's.
        #expect(rates.contains { $0.fetchedAt == .at("2026-11-22T00:00:00Z") && $0.rate == 65_000 && $0.provider == "mempool" })

        await group.triggerGracefulShutdown()
        try await running.value
    }
}
