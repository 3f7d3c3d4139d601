/// A base and a quote currency: one unit of `base` costs `rate` units of `quote`.
public struct CurrencyPair: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let base: Currency
    public let quote: Currency

    public init(base: Currency, quote: Currency) {
        self.base = base
        self.quote = quote
    }

    /// Parses `BTC/USD`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let base = try? Currency(code: String(parts[0]).trimmingSpaces),
              let quote = try? Currency(code: String(parts[1]).trimmingSpaces) else { return nil }
        self.init(base: base, quote: quote)
    }

    public var description: String { "\(base.code)/\(quote.code)" }

    public static func < (lhs: CurrencyPair, rhs: CurrencyPair) -> Bool {
        (lhs.base, lhs.quote) < (rhs.base, rhs.quote)
    }
}
