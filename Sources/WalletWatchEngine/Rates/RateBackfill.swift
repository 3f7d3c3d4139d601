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
        /// Where its history came from: the configured provider, or CoinGecko for a coin other
        /// than BTC under mempool.
        public let provider: String
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

/// Fills the rate history with one price per UTC day (SPEC.md sections 17 and 25), for every
/// coin the provider prices (``PricingPlan``: BTC, and each coin held or saved towards that has
/// a CoinGecko id) in each quote currency, over the ledger's span (first transaction through
/// today) or from a given day. Only days without a daily price are asked for; each answer's
/// prices are stored in one transaction as soon as it arrives. CoinGecko is asked per coin and
/// quote (`coins/{id}/market_chart/range`), mempool for BTC (`v1/historical-price`, its whole
/// history), and under mempool CoinGecko (`coingecko_url`) for the other coins.
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

    /// The pricing plan a backfill follows: the refresh's (every coin in use, in every quote).
    func plan() throws -> PricingPlan {
        PricingPlan(configured: config.rates.currencies, display: try preferences.displayCurrency(), inUse: try database.currenciesInUse(),
                    registry: try database.currencyRegistry())
    }

    /// The pairs a backfill fills: each priced coin in each quote currency.
    public func pairs() throws -> [CurrencyPair] {
        try plan().pairs
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
        let plan = try self.plan()
        let pairs = plan.pairs
        let handNote = plan.handPriced.isEmpty ? [] : ["\(plan.handPriced.map(\.code).joined(separator: ", ")) \(plan.handPriced.count == 1 ? "has" : "have") no CoinGecko id, so no provider has \(plan.handPriced.count == 1 ? "its" : "their") history; add daily prices with `walletwatch rates import FILE` or one at a time with `walletwatch rates set CODE QUOTE PRICE --at DAY`"]
        guard let first = try since ?? span()?.lowerBound else {
            return BackfillResult(provider: provider.rawValue, requests: 0, span: nil, pairs: pairs.map {
                BackfillResult.Pair(pair: $0, provider: source(of: $0.base).name, daysAdded: 0, first: nil, last: nil, daysMissing: 0)
            }, skipped: [], unavailable: [], warnings: ["no transactions yet, so no span to backfill; `walletwatch rates backfill --since yyyy-MM-dd` backfills from a date"] + handNote)
        }
        var backfill = BackfillPlan(span: first...today)
        for pair in pairs {
            backfill.missing[pair] = backfill.allDays.subtracting(try database.dailyRateDays(pair, from: first, through: today))
            if source(of: pair.base) == .coingecko {
                backfill.setReach(of: pair, from: Day(daysSinceEpoch: today.daysSinceEpoch - Int64(CoinGeckoClient.publicHistoryDays) + 1))
            }
        }
        let providers = Dictionary(uniqueKeysWithValues: pairs.map { ($0, source(of: $0.base).name) })
        var run = BackfillRun(plan: backfill, provider: provider.rawValue, providers: providers, progress: progress)
        progress(BackfillProgress(done: 0, wanted: run.wanted))
        do {
            let byCoin = plan.coins.map { coin in (coin, pairs.filter { $0.base == coin.currency }) }
            for (coin, coinPairs) in byCoin where source(of: coin.currency) == .coingecko {
                try await coingecko(&run, coin: coin, pairs: coinPairs, now: now)
            }
            if let bitcoin = byCoin.first(where: { $0.0.currency == .btc }), source(of: .btc) == .mempool {
                try await mempool(&run, pairs: bitcoin.1, now: now)
            }
        } catch {
            let reason = (error as? any Classified)?.description ?? String(describing: error)
            let stored = run.added.values.reduce(0) { $0 + $1.count }
            throw BackfillInterrupted("rates backfill stopped: \(reason); \(stored) daily price(s) stored before it are kept, and the next `walletwatch rates backfill` asks only for the days still missing")
        }
        let result = run.result(pairs: pairs)
        return BackfillResult(provider: result.provider, requests: result.requests, span: result.span, pairs: result.pairs,
                              skipped: result.skipped, unavailable: result.unavailable, warnings: result.warnings + handNote)
    }

    /// Where a coin's history comes from.
    enum HistorySource: Equatable {
        case coingecko, mempool
        var name: String { self == .coingecko ? "coingecko" : "mempool" }
    }

    /// mempool.space for BTC under the mempool provider; CoinGecko for everything else.
    func source(of coin: Currency) -> HistorySource {
        config.rates.provider == .mempool && coin == .btc ? .mempool : .coingecko
    }

    /// CoinGecko: one request per coin, quote and run of consecutive missing days, at the
    /// provider's url, or at `coingecko_url` under mempool.
    private func coingecko(_ run: inout BackfillRun, coin: PricedCoin, pairs: [CurrencyPair], now: Instant) async throws {
        let url = config.rates.provider == .coingecko ? config.rates.url : config.rates.coingeckoURL
        let client = CoinGeckoClient(baseURL: url, http: http)
        for pair in pairs {
            for days in BackfillPlan.runs(of: run.plan.reachable(pair)) {
                let end = min(now, days.upperBound.startInstant.adding(seconds: 86_399))
                let handled = [pair: Set(BackfillPlan.days(days))]
                run.requests += 1
                let answer: PriceHistoryAnswer
                do {
                    answer = try await client.history(of: coin, in: pair.quote, from: days.lowerBound.startInstant, to: end, now: now)
                } catch let error as SourceError where BackfillRun.refusesPair(error) {
                    run.refuse([pair], error)
                    break
                }
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
        var queue = requests[...]
        while let request = queue.popFirst() {
            let handled = Dictionary(uniqueKeysWithValues: request.pairs.map { ($0, run.plan.reachable($0)) })
            run.requests += 1
            let answer: PriceHistoryAnswer
            do {
                answer = try await client.history(currency: request.ask, wanted: request.pairs.map(\.quote), now: now)
            } catch let error as SourceError where BackfillRun.refusesPair(error) {
                // A currency mempool does not quote: USD, which rode along, is asked on its own.
                let asked = request.pairs.filter { $0.quote == request.ask }
                run.refuse(asked, error)
                let riders = request.pairs.filter { $0.quote != request.ask }
                if !riders.isEmpty { queue.append((.usd, riders)) }
                continue
            }
            try await run.store(answer, database: database, handled: handled)
        }
    }
}
