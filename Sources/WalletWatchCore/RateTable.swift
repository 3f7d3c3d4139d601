import Foundation

/// One stored exchange rate: one `base` costs `rate` units of `quote` (major units).
public struct ExchangeRate: Hashable, Sendable {
    public let pair: CurrencyPair
    public let rate: Decimal
    public let fetchedAt: Instant
    public let provider: String

    public init(pair: CurrencyPair, rate: Decimal, fetchedAt: Instant, provider: String) {
        self.pair = pair
        self.rate = rate
        self.fetchedAt = fetchedAt
        self.provider = provider
    }

    /// The provider name of a price the user set by hand (`walletwatch rates set`).
    public static let manualProvider = "manual"
}

/// A rate between two currencies, as found in a ``RateTable``. It is kept as a fraction
/// (`numerator / denominator`) so that inverse and cross rates are divided once, at the end
/// of a conversion, and an exact half (86154 x 65000 / 60000 = 93333.5) stays exact.
public struct RateQuote: Hashable, Sendable {
    public let numerator: Decimal
    public let denominator: Decimal
    /// The time of the oldest stored rate used; nil for a currency to itself.
    public let asOf: Instant?
    /// True when a stored rate used is older than the allowed age.
    public let stale: Bool

    /// Units of the target currency for one unit of the source currency.
    public var rate: Decimal { numerator / denominator }
}

/// The latest rates known, converting between any two currencies with ``RateRoute``'s lookup
/// (SPEC.md sections 7 and 25): 1 for the same currency, the stored pair, its inverse, or a cross
/// through one or two intermediates (BTC first, then `preferred`, the display currency). A
/// missing rate is nil, never zero.
public struct RateTable: CurrencyConverter {
    public let rates: [CurrencyPair: ExchangeRate]
    /// When the table is read, to judge staleness.
    public let now: Instant
    /// Rates older than this many seconds are stale.
    public let maxAgeSeconds: Int64
    let route: RateRoute

    /// - parameter preferred: intermediates to try after BTC for a cross rate (the display currency).
    public init(rates: [ExchangeRate], now: Instant, maxAgeSeconds: Int64, preferred: [Currency] = []) {
        self.rates = Dictionary(rates.map { ($0.pair, $0) }, uniquingKeysWith: { $0.fetchedAt >= $1.fetchedAt ? $0 : $1 })
        self.now = now
        self.maxAgeSeconds = maxAgeSeconds
        route = RateRoute(pairs: self.rates.filter { $0.value.rate > 0 }.keys, preferred: preferred)
    }

    /// The rate from `source` to `target`, or nil when none can be derived.
    public func quote(from source: Currency, to target: Currency) -> RateQuote? {
        route.quote(from: source, to: target, leg: direct)
    }

    /// A stored pair or its inverse.
    private func direct(from source: Currency, to target: Currency) -> RateQuote? {
        if let stored = rates[CurrencyPair(base: source, quote: target)], stored.rate > 0 {
            return RateQuote(numerator: stored.rate, denominator: 1, asOf: stored.fetchedAt, stale: isStale(stored))
        }
        if let stored = rates[CurrencyPair(base: target, quote: source)], stored.rate > 0 {
            return RateQuote(numerator: 1, denominator: stored.rate, asOf: stored.fetchedAt, stale: isStale(stored))
        }
        return nil
    }

    /// A rate older than the allowed age, unless the user set it by hand (`rates set`): no
    /// provider refreshes such a price, and it holds until the user sets another.
    public func isStale(_ rate: ExchangeRate) -> Bool {
        rate.provider != ExchangeRate.manualProvider && now.seconds(since: rate.fetchedAt) > maxAgeSeconds
    }

    public func convert(_ money: Money, to currency: Currency) -> Money? {
        guard let quote = quote(from: money.currency, to: currency) else { return nil }
        return Self.convert(money, to: currency, quote: quote)
    }

    /// `money` times the quote's rate, in `currency`'s minor units: multiplied first, divided
    /// once, rounded half to even once.
    public static func convert(_ money: Money, to currency: Currency, quote: RateQuote) -> Money? {
        if money.currency == currency { return money }
        let shift = currency.exponent - money.currency.exponent
        let scale = Decimal(sign: .plus, exponent: shift, significand: 1)
        guard quote.denominator != 0,
              let minor = Rounding.halfEven(Decimal(minorUnits: money.minorUnits) * quote.numerator * scale / quote.denominator)
        else { return nil }
        return Money(minorUnits: minor, currency: currency)
    }

    /// True when some rate moved by more than `fraction` (0.01 = 1%) between two tables, or a
    /// pair appeared or disappeared: cached figures computed with `other` are no longer good.
    public func movedMoreThan(_ fraction: Decimal, since other: RateTable) -> Bool {
        guard Set(rates.keys) == Set(other.rates.keys) else { return true }
        for (pair, rate) in rates {
            let old = other.rates[pair]!.rate
            guard old != 0 else { return true }
            let change = (rate.rate - old) / old
            if change > fraction || change < -fraction { return true }
        }
        return false
    }
}
