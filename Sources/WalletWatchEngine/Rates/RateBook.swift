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

/// Exchange rates (SPEC.md section 7): the latest stored per pair, refreshed from the configured
/// provider when a needed pair is missing or stale, and imported daily prices.
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
    /// A failed refresh leaves the stored rates in use and says so.
    public func current(for needed: Set<CurrencyPair> = [], refresh: RateRefresh = .ifNeeded) async -> RateState {
        let now = clock.now
        let maxAge = Int64(config.rates.maxAgeSeconds)
        let stored = (try? database.latestRates()) ?? []
        let table = RateTable(rates: stored, now: now, maxAgeSeconds: maxAge)
        let wanted = needed.filter { $0.base != $0.quote }
        let mustRefresh = switch refresh {
        case .always: true
        case .never: false
        case .ifNeeded: wanted.contains { pair in table.quote(from: pair.base, to: pair.quote).map(\.stale) ?? true }
        }
        guard mustRefresh else { return RateState(table: table, warnings: []) }
        do {
            let refreshed = try await self.refresh(including: Set(wanted.flatMap { [$0.base, $0.quote] }))
            let fresh = RateTable(rates: try database.latestRates(), now: now, maxAgeSeconds: maxAge)
            // A currency the provider answered without a price already has its warning: the
            // pairs it leaves without a rate are not told a second time.
            let unpriced = Set(refreshed.unpriced.map(\.currency))
            let missing = wanted.filter { fresh.quote(from: $0.base, to: $0.quote) == nil && !unpriced.contains($0.base) && !unpriced.contains($0.quote) }
                .map(\.description).sorted()
            return RateState(table: fresh, warnings: refreshed.warnings
                + (missing.isEmpty ? [] : ["no exchange rate for \(missing.joined(separator: ", ")) from the \(config.rates.provider.rawValue) provider"]))
        } catch {
            let reason = (error as? any Classified)?.description ?? String(describing: error)
            let oldest = stored.map(\.fetchedAt).min()
            let age = oldest.map { "stored rates from \(Age.describe(now.seconds(since: $0))) ago are used" } ?? "no rates are stored"
            logger.warning("rates refresh failed: \(reason)")
            return RateState(table: table, warnings: ["exchange rates could not be refreshed (\(reason)); \(age)"])
        }
    }

    /// What a refresh stored, and the currencies the provider answered without a price.
    public struct RatesRefreshed: Sendable {
        /// The rates stored (latest per pair, and appended to the history).
        public let rates: [ExchangeRate]
        /// Currencies the provider named with null, zero or a negative value: nothing stored.
        public let unpriced: [PriceAnswer.Unpriced]
        public let provider: String

        /// One line per unpriced currency, naming the provider and the currency.
        public var warnings: [String] {
            unpriced.map { "the \(provider) provider has no BTC/\($0.currency.code) price (it answered \($0.answered)); no \($0.currency.code) rate was stored" }
        }
    }

    /// Asks the configured provider for BTC prices in the configured currencies plus `extra`
    /// ones, and stores the positive ones (latest per pair, appended to the history). A
    /// currency the provider answers without a price (mempool's -1) is left out and reported;
    /// the others are stored.
    @discardableResult
    public func refresh(including extra: Set<Currency> = []) async throws -> RatesRefreshed {
        var currencies = config.rates.currencies
        for currency in ([try preferences.displayCurrency()] + extra.sorted()) where currency != .btc && !currencies.contains(currency) {
            currencies.append(currency)
        }
        let answer = try await ask(for: currencies)
        try await database.saveRates(answer.rates)
        return RatesRefreshed(rates: answer.rates, unpriced: answer.unpriced, provider: config.rates.provider.rawValue)
    }

    /// Asks the provider for the configured currencies' prices and stores nothing
    /// (`walletwatch doctor`).
    public func probe() async throws -> PriceAnswer {
        try await ask(for: config.rates.currencies)
    }

    /// The provider's answer for BTC prices in `currencies`.
    private func ask(for currencies: [Currency]) async throws -> PriceAnswer {
        let now = clock.now
        let answer: PriceAnswer
        switch config.rates.provider {
        case .static:
            // The config loader refuses a rate that is not positive, naming its key.
            answer = PriceAnswer(rates: config.rates.staticRates.sorted { $0.key < $1.key }.map {
                ExchangeRate(pair: $0.key, rate: $0.value, fetchedAt: now, provider: "static")
            })
        case .coingecko:
            answer = try await CoinGeckoClient(baseURL: config.rates.url, http: http).prices(in: currencies, now: now)
        case .mempool:
            answer = try await MempoolPriceClient(baseURL: config.rates.url, http: http).prices(in: currencies, now: now)
        }
        return answer
    }
}
