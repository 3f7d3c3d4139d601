import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

/// The days a backfill sets out to fill: each pair's days without a daily price, and how far
/// back the provider of each pair can be asked.
struct BackfillPlan {
    let span: ClosedRange<Day>
    /// Each pair's days of the span without a daily price before the run.
    var missing: [CurrencyPair: Set<Day>] = [:]
    /// The provider of a pair answers only from this day on (none: no limit; CoinGecko's
    /// public API: the past 365 days).
    private(set) var reachFrom: [CurrencyPair: Day] = [:]

    init(span: ClosedRange<Day>) {
        self.span = span
    }

    var allDays: Set<Day> { Set(Self.days(span)) }

    mutating func setReach(of pair: CurrencyPair, from day: Day) { reachFrom[pair] = day }

    /// The missing days the provider can be asked for.
    func reachable(_ pair: CurrencyPair) -> Set<Day> {
        let days = missing[pair] ?? []
        guard let reach = reachFrom[pair] else { return days }
        return days.filter { $0 >= reach }
    }

    /// The missing days the provider cannot be asked for, oldest first.
    func unreachable(_ pair: CurrencyPair) -> [Day] {
        guard let reach = reachFrom[pair] else { return [] }
        return (missing[pair] ?? []).filter { $0 < reach }.sorted()
    }

    /// Every day of `range`, oldest first.
    static func days(_ range: ClosedRange<Day>) -> [Day] {
        (range.lowerBound.daysSinceEpoch...range.upperBound.daysSinceEpoch).map(Day.init(daysSinceEpoch:))
    }

    /// `days` as runs of consecutive days, oldest first.
    static func runs(of days: Set<Day>) -> [ClosedRange<Day>] {
        var runs: [ClosedRange<Day>] = []
        for day in days.sorted() {
            if let last = runs.last, last.upperBound.next == day {
                runs[runs.count - 1] = last.lowerBound...day
            } else {
                runs.append(day...day)
            }
        }
        return runs
    }
}

/// A backfill under way: what it asked, stored and skipped so far.
struct BackfillRun {
    let plan: BackfillPlan
    /// The configured provider, named in the report.
    let provider: String
    /// The provider each pair's history comes from (with mempool: CoinGecko for coins but BTC).
    let providers: [CurrencyPair: String]
    let progress: @Sendable (BackfillProgress) -> Void
    var requests = 0
    private var done = 0
    private(set) var added: [CurrencyPair: [Day]] = [:]
    private var skipped: [SkippedPrice] = []
    /// Pairs whose history the provider refused (a currency it does not quote), with its answer.
    private var refused: [CurrencyPair: String] = [:]

    init(plan: BackfillPlan, provider: String, providers: [CurrencyPair: String], progress: @escaping @Sendable (BackfillProgress) -> Void) {
        self.plan = plan
        self.provider = provider
        self.providers = providers
        self.progress = progress
    }

    /// Days the run sets out to fill, over all pairs.
    var wanted: Int { plan.missing.keys.reduce(0) { $0 + plan.reachable($1).count } }

    /// Stores, in one transaction, the first usable point of each day in `handled` (the days
    /// this answer was asked for, by pair), and reports the progress.
    mutating func store(_ answer: PriceHistoryAnswer, database: AppDatabase, handled: [CurrencyPair: Set<Day>]) async throws {
        skipped += answer.skipped
        var rates: [ExchangeRate] = []
        for (pair, days) in handled.sorted(by: { $0.key < $1.key }) {
            var chosen: Set<Day> = []
            for point in answer.points[pair] ?? [] {
                let day = point.instant.day
                guard days.contains(day), chosen.insert(day).inserted else { continue }
                rates.append(ExchangeRate(pair: pair, rate: point.price, fetchedAt: day.startInstant, provider: providers[pair] ?? provider))
            }
        }
        for rate in try await database.addDailyRates(rates) {
            added[rate.pair, default: []].append(rate.fetchedAt.day)
        }
        done += handled.values.reduce(0) { $0 + $1.count }
        progress(BackfillProgress(done: done, wanted: wanted))
    }

    /// Notes that the provider refused `pairs`' history (an HTTP 4xx answer other than 429: a
    /// currency it does not quote): the run goes on with the other pairs.
    mutating func refuse(_ pairs: [CurrencyPair], _ error: SourceError) {
        for pair in pairs { refused[pair] = "\(error.request): \(error.problem)" }
        done += pairs.reduce(0) { $0 + plan.reachable($1).count }
        progress(BackfillProgress(done: done, wanted: wanted))
    }

    /// Whether an error refuses one pair's history rather than every request: an HTTP 4xx
    /// answer other than 429 (too many requests) and 401 (a key or a range refused).
    static func refusesPair(_ error: any Error) -> Bool {
        guard let error = error as? SourceError, case .status(let code) = error.cause else { return false }
        return (400..<500).contains(code) && code != 429 && code != 401
    }

    /// The run's outcome, with its warnings.
    func result(pairs: [CurrencyPair]) -> BackfillResult {
        var warnings: [String] = []
        var unavailable: [BackfillResult.Unavailable] = []
        let lines = pairs.map { pair in
            let source = providers[pair] ?? provider
            let days = (added[pair] ?? []).sorted()
            let stillMissing = plan.reachable(pair).subtracting(days).sorted()
            if let answer = refused[pair] {
                warnings.append("the \(source) provider has no \(pair) history (\(answer)); no daily price of it was stored")
            } else if let first = stillMissing.first, let last = stillMissing.last {
                warnings.append("the \(source) provider had no usable \(pair) price for \(stillMissing.count) day(s) between \(first) and \(last); the next backfill asks for them again")
            }
            let beyond = plan.unreachable(pair)
            if let first = beyond.first, let last = beyond.last {
                unavailable.append(BackfillResult.Unavailable(pair: pair, days: beyond.count, first: first, last: last))
                warnings.append("\(source)'s public API answers only the past \(CoinGeckoClient.publicHistoryDays) days: \(pair) has no daily price for \(beyond.count) day(s) from \(first) through \(last), which the ledger reaches back to; add them with `walletwatch rates import FILE` (a CSV with the columns date,base,quote,rate)")
            }
            return BackfillResult.Pair(pair: pair, provider: source, daysAdded: days.count, first: days.first, last: days.last,
                                       daysMissing: stillMissing.count + beyond.count)
        }
        if !skipped.isEmpty {
            let named = skipped.prefix(5).map(\.description).joined(separator: "; ")
            warnings.insert("skipped \(skipped.count) unusable price point(s) in the \(provider) answers, none of them stored (\(named)\(skipped.count > 5 ? "; ..." : ""))", at: 0)
        }
        return BackfillResult(provider: provider, requests: requests, span: plan.span, pairs: lines, skipped: skipped,
                              unavailable: unavailable, warnings: warnings)
    }
}
