import WalletWatchCore
import WalletWatchStore

/// A price set by hand, as stored.
public struct ManualRateResult: Sendable {
    public let rate: ExchangeRate
    /// It is now the pair's latest rate (no newer one was stored).
    public let latest: Bool
    /// It replaced a price set by hand for the same pair and time.
    public let replaced: Bool
    /// The provider prices this pair too: its next refresh replaces the latest rate.
    public let providerPrices: Bool
}

extension RateBook {
    /// Stores one price of 1 `code` in `quote` (`walletwatch rates set`, SPEC.md section 25) as
    /// a provider's point of its time: in the rate history and, when it is the newest of its
    /// pair, as its latest rate, provider `manual`. `at` is a day (00:00 UTC) or an instant,
    /// by default now; a time in the future is refused. This prices a unit CoinGecko does not
    /// know (a share, a gram of gold), for figures now and at past dates.
    public func setPrice(code: String, quote: String, price: String, at: String?) async throws -> ManualRateResult {
        let now = clock.now
        let rate = try ManualRate.parse(code: code, quote: quote, price: price, at: at, now: now, registry: try database.currencyRegistry())
        let stored = try await database.saveManualRate(rate, now: now)
        let providerPrices = config.rates.provider == .static
            ? config.rates.staticRates.keys.contains { Set([$0.base, $0.quote]) == Set([rate.pair.base, rate.pair.quote]) }
            : try plannedPairs().contains { Set([$0.base, $0.quote]) == Set([rate.pair.base, rate.pair.quote]) }
        return ManualRateResult(rate: rate, latest: stored.latest, replaced: stored.replaced, providerPrices: providerPrices)
    }
}
