import Foundation
import Logging
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// How far a backfill has come: days of history handled of the days it set out to fill.
public struct BackfillProgress: Sendable, Equatable {
    public let done: Int
    public let wanted: Int
}

/// What `rates backfill` did (SPEC.md section 17).
public struct BackfillResult: Sendable {
    /// One pair's outcome.
    public struct Pair: Sendable {
        public let pair: CurrencyPair
        /// Daily prices stored by this run.
        public let daysAdded: Int
        /// The first and last day stored by this run (nil when none).
        public let first: Day?
        public let last: Day?
        /// Days of the span still without a daily price: the provider had none, or cannot be
        /// asked for them (``unavailable``).
        public let daysMissing: Int
    }

    /// Days of a pair the provider cannot be asked for (CoinGecko's public API: before the
    /// past 365 days): `rates import` fills them.
    public struct Unavailable: Sendable {
        public let pair: CurrencyPair
        public let days: Int
        public let first: Day
        public let last: Day
    }

    public let provider: String
    /// HTTP requests sent to the provider (retries of one request not counted).
    public let requests: Int
    /// The days the run covered (nil when there was nothing to cover).
    public let span: ClosedRange<Day>?
    public let pairs: [Pair]
    /// Points of the answers that were not usable: nothing of them was stored.
    public let skipped: [SkippedPrice]
    public let unavailable: [Unavailable]
    /// What the user should be told (on stderr, or in the daemon's log).
    public let warnings: [String]
}

/// A backfill stopped by a failed request: the days stored before it are kept.
public struct BackfillInterrupted: Classified, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var kind: ErrorKind { .runtime }
}

/// Fills the rate history with one price per UTC day from the configured provider (SPEC.md
/// section 17), for the configured currencies and the display currency, over the ledger's span
/// (first transaction through today) or from a given day. Only days without a daily price are
/// asked for; each answer's prices are stored in one transaction as soon as it arrives.
///
/// A day's price is the first usable point of that day in the provider's answer (CoinGecko's
/// daily points are at 00:00 UTC; in hourly answers the first is the one nearest the day's
/// start), stored at 00:00 UTC of the day: from then on it is the price at that date (SPEC.md
/// section 13: the latest rate at or before it), as an imported daily price is.
public struct RateBackfill: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let http: any HTTPClient
    let preferences: Preferences
    let logger: Logger

    init(database: AppDatabase, config: AppConfig, clock: WallClock, http: any HTTPClient, preferences: Preferences, logger: Logger) {
        self.database = database
        self.config = config
        self.clock = clock
        self.http = http
        self.preferences = preferences
        self.logger = logger
    }

    /// The pairs a backfill fills: BTC in each configured currency and the display currency.
    public func pairs() throws -> [CurrencyPair] {
        var currencies = config.rates.currencies
        let display = try preferences.displayCurrency()
        if !currencies.contains(display) { currencies.append(display) }
        return currencies.filter { $0 != .btc }.map { CurrencyPair(base: .btc, quote: $0) }
    }

    /// The days a backfill without a start day covers: the first transaction's day through
    /// today (UTC); nil while the ledger is empty.
    public func span() throws -> ClosedRange<Day>? {
        let today = clock.now.day
        return try database.firstTransactionDay().map { min($0, today)...today }
    }

    /// Backfills from `since` (default: the day of the first transaction) through today,
    /// calling `progress` after each answer. Refuses the static provider, which has no history.
    public func run(since: Day? = nil, progress: @escaping @Sendable (BackfillProgress) -> Void = { _ in }) async throws -> BackfillResult {
        let provider = config.rates.provider
        guard provider != .static else {
            throw Refusal("the static provider has no price history to backfill from; set [rates] provider to coingecko or mempool, or add daily prices with `walletwatch rates import FILE`")
        }
        let now = clock.now
        let today = now.day
        if let since, since > today { throw Refusal("--since \(since) is in the future (today is \(today) UTC)") }
        let pairs = try self.pairs()
        guard let first = try since ?? span()?.lowerBound else {
            return BackfillResult(provider: provider.rawValue, requests: 0, span: nil, pairs: pairs.map {
                BackfillResult.Pair(pair: $0, daysAdded: 0, first: nil, last: nil, daysMissing: 0)
            }, skipped: [], unavailable: [], warnings: ["no transactions yet, so no span to backfill; `walletwatch rates backfill --since yyyy-MM-dd` backfills from a date"])
        }
        var plan = BackfillPlan(span: first...today)
        for pair in pairs {
            plan.missing[pair] = plan.allDays.subtracting(try database.dailyRateDays(pair, from: first, through: today))
        }
        if provider == .coingecko {
            plan.setReach(from: Day(daysSinceEpoch: today.daysSinceEpoch - Int64(CoinGeckoClient.publicHistoryDays) + 1))
        }
        var run = BackfillRun(plan: plan, provider: provider.rawValue, progress: progress)
        progress(BackfillProgress(done: 0, wanted: run.wanted))
        do {
            switch provider {
            case .coingecko: try await coingecko(&run, pairs: pairs, now: now)
            case .mempool: try await mempool(&run, pairs: pairs, now: now)
            case .static: break
            }
        } catch {
            let reason = (error as? any Classified)?.description ?? String(describing: error)
            let stored = run.added.values.reduce(0) { $0 + $1.count }
            throw BackfillInterrupted("rates backfill stopped: \(reason); \(stored) daily price(s) stored before it are kept, and the next `walletwatch rates backfill` asks only for the days still missing")
        }
        return run.result(pairs: pairs)
    }

    /// CoinGecko: one request per pair and run of consecutive missing days.
    private func coingecko(_ run: inout BackfillRun, pairs: [CurrencyPair], now: Instant) async throws {
        let client = CoinGeckoClient(baseURL: config.rates.url, http: http)
        for pair in pairs {
            for days in BackfillPlan.runs(of: run.plan.reachable(pair)) {
                let end = min(now, days.upperBound.startInstant.adding(seconds: 86_399))
                let handled = [pair: Set(BackfillPlan.days(days))]
                run.requests += 1
                let answer = try await client.history(in: pair.quote, from: days.lowerBound.startInstant, to: end, now: now)
                try await run.store(answer, database: database, handled: handled)
            }
        }
    }

    /// mempool: its whole history per request, with USD beside the currency asked for: one
    /// request per other currency that lacks days, and one for USD only when none of those
    /// brought it.
    private func mempool(_ run: inout BackfillRun, pairs: [CurrencyPair], now: Instant) async throws {
        let client = MempoolPriceClient(baseURL: config.rates.url, http: http)
        let lacking = pairs.filter { !run.plan.reachable($0).isEmpty }
        var usd = lacking.first { $0.quote == .usd }
        var requests: [(ask: Currency, pairs: [CurrencyPair])] = []
        for pair in lacking where pair.quote != .usd {
            requests.append((pair.quote, [pair] + (usd.map { [$0] } ?? [])))
            usd = nil
        }
        if let usd { requests.append((.usd, [usd])) }
        for request in requests {
            let handled = Dictionary(uniqueKeysWithValues: request.pairs.map { ($0, run.plan.reachable($0)) })
            run.requests += 1
            let answer = try await client.history(currency: request.ask, wanted: request.pairs.map(\.quote), now: now)
            try await run.store(answer, database: database, handled: handled)
        }
    }
}
