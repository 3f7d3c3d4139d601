import Foundation
import Logging
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// Rates as an operation needs them, with what the user should be told about them.
public struct RateState: Sendable {
    public let table: RateTable
    /// Rates could not be refreshed (they may be stale or missing).
    public let warnings: [String]
}

/// A figure needs an exchange rate that is neither stored nor to be had from the provider
/// (exit 1). Freezing a month with such a figure would freeze a zero in its place.
public struct RateUnavailable: Classified, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var kind: ErrorKind { .runtime }
}

/// When to ask the rate provider.
public enum RateRefresh: Sendable {
    /// Only when a needed pair is missing or older than `max_age_seconds`.
    case ifNeeded
    /// Always (`rates --refresh`).
    case always
    /// Never: stored rates only (views that redraw often).
    case never
}

/// Exchange rates (SPEC.md sections 7 and 25): the latest stored per pair, refreshed from the
/// configured provider when a needed pair is missing or stale, prices set by hand, and imported
/// daily prices. Every coin in use is priced against the display currency, the goals' money and
/// the configured currencies (``PricingPlan``); CoinGecko is asked for all of them in one
/// request, mempool.space for BTC and CoinGecko (`coingecko_url`) for the other coins.
public struct RateBook: Sendable {
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

    /// The stored rates, refreshed first when `needed` pairs are missing or stale (or always).
    /// A failed refresh leaves the stored rates in use and says so. A needed pair no provider
    /// can price (a unit without a CoinGecko id) never causes a refresh; when it has no rate the
    /// warning says how to set one.
    public func current(for needed: Set<CurrencyPair> = [], refresh: RateRefresh = .ifNeeded) async -> RateState {
        let now = clock.now
        let maxAge = Int64(config.rates.maxAgeSeconds)
        let preferred = (try? preferences.displayCurrency()).map { [$0] } ?? []
        let registry = (try? database.currencyRegistry()) ?? CurrencyRegistry()
        let stored = (try? database.latestRates()) ?? []
        let table = RateTable(rates: stored, now: now, maxAgeSeconds: maxAge, preferred: preferred)
        let wanted = needed.filter { $0.base != $0.quote }
        let fetchable = { (pair: CurrencyPair) in
            self.config.rates.provider == .static
                || (PricingPlan.fetchable(pair.base, registry: registry) && PricingPlan.fetchable(pair.quote, registry: registry))
        }
        let mustRefresh = switch refresh {
        case .always: true
        case .never: false
        case .ifNeeded: wanted.contains { pair in table.quote(from: pair.base, to: pair.quote).map(\.stale) ?? fetchable(pair) }
        }
        guard mustRefresh else {
            let missing = refresh == .never ? [] : wanted.filter { table.quote(from: $0.base, to: $0.quote) == nil }
            return RateState(table: table, warnings: missingWarnings(Set(missing), explained: [], registry: registry))
        }
        do {
            let refreshed = try await self.refresh(including: Set(wanted.flatMap { [$0.base, $0.quote] }))
            let fresh = RateTable(rates: try database.latestRates(), now: now, maxAgeSeconds: maxAge, preferred: preferred)
            let missing = wanted.filter { fresh.quote(from: $0.base, to: $0.quote) == nil }
            return RateState(table: fresh, warnings: refreshed.warnings + missingWarnings(Set(missing), explained: refreshed.explained, registry: registry))
        } catch {
            let reason = (error as? any Classified)?.description ?? String(describing: error)
            let oldest = stored.map(\.fetchedAt).min()
            let age = oldest.map { "stored rates from \(Age.describe(now.seconds(since: $0))) ago are used" } ?? "no rates are stored"
            logger.warning("rates refresh failed: \(reason)")
            return RateState(table: table, warnings: ["exchange rates could not be refreshed (\(reason)); \(age)"])
        }
    }

    /// One line for the pairs still without a rate: those no provider can price (a unit without
    /// a CoinGecko id) with the way to price them by hand, the others naming the provider.
    /// Pairs sharing a currency with a pair the provider's answer already warned about
    /// (`explained`) are not told a second time.
    private func missingWarnings(_ missing: Set<CurrencyPair>, explained: Set<Currency>, registry: CurrencyRegistry) -> [String] {
        var warnings: [String] = []
        let hand = missing.filter { !PricingPlan.fetchable($0.base, registry: registry) || !PricingPlan.fetchable($0.quote, registry: registry) }
        for pair in hand.sorted() {
            let unit = PricingPlan.fetchable(pair.base, registry: registry) ? pair.quote : pair.base
            let other = unit == pair.base ? pair.quote : pair.base
            warnings.append("no exchange rate for \(pair): \(unit.code) has no CoinGecko id, so no provider prices it; set its price with `walletwatch rates set \(unit.code) \(other.code) PRICE` (or `rates import FILE` for past days)")
        }
        let rest = missing.subtracting(hand).filter { explained.isDisjoint(with: [$0.base, $0.quote]) }.map(\.description).sorted()
        if !rest.isEmpty {
            warnings.append("no exchange rate for \(rest.joined(separator: ", ")) from the \(config.rates.provider.rawValue) provider")
        }
        return warnings
    }

    /// What a refresh stored, and what the provider answered without a price.
    public struct RatesRefreshed: Sendable {
        /// The rates stored (latest per pair, and appended to the history).
        public let rates: [ExchangeRate]
        /// Pairs the provider named with null, zero or a negative value: nothing stored.
        public let unpriced: [PriceAnswer.Unpriced]
        /// Coins CoinGecko left out of its answer (an id it does not know).
        public let unknown: [PricedCoin]
        /// Parts of the refresh that failed while another part answered (mempool for BTC,
        /// CoinGecko for the other coins), each with its reason.
        public let failures: [String]
        public let provider: String

        /// One line per unpriced pair, unknown coin and failed part, naming the provider.
        public var warnings: [String] {
            unpriced.map { "the \($0.provider(default: provider)) provider has no \($0.pair) price (it answered \($0.answered)); no \($0.pair) rate was stored" }
                + unknown.map { "CoinGecko does not know the id '\($0.id)' of \($0.currency.code) (its answer left it out); no \($0.currency.code) price was stored: check the id on the coin's CoinGecko page (`walletwatch currency list` shows it), or price \($0.currency.code) by hand with `walletwatch rates set \($0.currency.code) QUOTE PRICE`" }
                + failures
        }

        /// The currencies the warnings are about (the quote of a pair answered without a price,
        /// a coin CoinGecko does not know): a pair still missing through them needs no second line.
        var explained: Set<Currency> {
            Set(unpriced.map(\.pair.quote) + unknown.map(\.currency))
        }
    }

    /// The pairs a refresh asks the provider for (with the static provider: its configured pairs).
    public func plannedPairs() throws -> [CurrencyPair] {
        guard config.rates.provider != .static else { return config.rates.staticRates.keys.sorted() }
        return try plan().pairs
    }

    /// The pricing plan for what the database holds, plus `extra` currencies.
    func plan(including extra: Set<Currency> = []) throws -> PricingPlan {
        PricingPlan(configured: config.rates.currencies, display: try preferences.displayCurrency(), inUse: try database.currenciesInUse(),
                    extra: extra, registry: try database.currencyRegistry())
    }

    /// Asks the configured provider for every coin in use (and `extra` currencies) in the
    /// quote currencies, and stores the positive prices (latest per pair, appended to the
    /// history). A pair the provider answers without a price (mempool's -1) is left out and
    /// reported; the others are stored.
    @discardableResult
    public func refresh(including extra: Set<Currency> = []) async throws -> RatesRefreshed {
        let answer = try await ask(plan(including: extra))
        try await database.saveRates(answer.answer.rates)
        return RatesRefreshed(rates: answer.answer.rates, unpriced: answer.answer.unpriced, unknown: answer.answer.unknown,
                              failures: answer.failures, provider: config.rates.provider.rawValue)
    }

    /// Asks the provider for every coin in use, storing nothing (`walletwatch doctor`): the
    /// answer, the parts that failed, and the plan asked.
    func probe() async throws -> (answer: PriceAnswer, failures: [String], plan: PricingPlan) {
        let plan = try plan()
        let asked = try await ask(plan)
        return (asked.answer, asked.failures, plan)
    }

    /// The provider's answer for `plan`. With mempool, BTC comes from it and every other coin
    /// from CoinGecko; when one of the two fails and the other answers, the answer holds what
    /// came and the failure is a warning; when both fail, the first failure is thrown.
    private func ask(_ plan: PricingPlan) async throws -> (answer: PriceAnswer, failures: [String]) {
        let now = clock.now
        switch config.rates.provider {
        case .static:
            // The config loader refuses a rate that is not positive, naming its key.
            return (PriceAnswer(rates: config.rates.staticRates.sorted { $0.key < $1.key }.map {
                ExchangeRate(pair: $0.key, rate: $0.value, fetchedAt: now, provider: "static")
            }), [])
        case .coingecko:
            return (try await CoinGeckoClient(baseURL: config.rates.url, http: http).prices(of: plan.coins, in: plan.quotes, now: now), [])
        case .mempool:
            let others = plan.coins.filter { $0.currency != .btc }
            var answer = PriceAnswer(rates: [])
            var failures: [(String, any Error)] = []
            do {
                answer = try await MempoolPriceClient(baseURL: config.rates.url, http: http).prices(in: plan.quotes, now: now)
            } catch {
                failures.append(("BTC prices from mempool", error))
            }
            if !others.isEmpty {
                do {
                    answer = answer.merged(with: try await CoinGeckoClient(baseURL: config.rates.coingeckoURL, http: http)
                        .prices(of: others, in: plan.quotes, now: now))
                } catch {
                    failures.append(("\(others.map(\.currency.code).joined(separator: ", ")) prices from CoinGecko ([rates] coingecko_url)", error))
                }
            }
            if let first = failures.first, failures.count == 1 + (others.isEmpty ? 0 : 1) { throw first.1 }
            return (answer, failures.map { "\($0.0) could not be fetched (\(($0.1 as? any Classified)?.description ?? "\($0.1)")); the other prices were stored" })
        }
    }
}

extension PriceAnswer.Unpriced {
    /// The provider that answered it: CoinGecko for any coin but BTC under mempool.
    func provider(default configured: String) -> String {
        configured == "mempool" && pair.base != .btc ? "coingecko" : configured
    }
}
