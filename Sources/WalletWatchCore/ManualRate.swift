import Foundation

/// A price the user sets by hand (`walletwatch rates set CODE QUOTE PRICE [--at TIME]`, SPEC.md
/// section 25): what prices a unit CoinGecko does not know (a share, a gram of gold), or
/// corrects a day. It is stored as a provider's point is, under the provider name
/// ``ExchangeRate/manualProvider``.
public enum ManualRate {
    /// The rate of one `code` in `quote` at `at` (a day, meaning 00:00 UTC, or an ISO 8601
    /// instant; nil: `now`). Codes resolve in `registry` (the database's: the user's units count).
    /// A malformed input is a ``UsageError``; a time in the future a ``Refusal``.
    public static func parse(code: String, quote: String, price: String, at: String?, now: Instant,
                             registry: CurrencyRegistry) throws -> ExchangeRate {
        let base = try registry.currency(code)
        let target = try registry.currency(quote)
        guard base != target else {
            throw UsageError("\(base.code) in \(target.code): a price is of one currency in another, such as `walletwatch rates set GOLD USD 75.20`")
        }
        guard let rate = RateImportParser.positiveRate(price) else {
            throw UsageError("price '\(price)' is not a positive decimal number; write it like 2315.40 (\(target.code) for one \(base.code))")
        }
        var instant = now
        if let at {
            guard let parsed = Day(at)?.startInstant ?? Instant(iso8601: at) else {
                throw UsageError("--at '\(at)' is not a time; write a day like 2026-10-01 (00:00 UTC) or an instant like 2026-10-01T12:00:00Z")
            }
            guard parsed <= now else { throw Refusal("--at \(at) is in the future (now is \(now.iso8601)); a price is set for a time that has come") }
            instant = parsed
        }
        return ExchangeRate(pair: CurrencyPair(base: base, quote: target), rate: rate, fetchedAt: instant, provider: ExchangeRate.manualProvider)
    }
}
