import Foundation

/// Bitcoin's price in fiat currencies, keyed by upper-case ISO 4217 code (`USD`, `EUR`).
/// Decimals, as walletwatch keeps rates; JSON form: `{"USD": 65000.12, "EUR": 60012.5}`.
public struct PriceTable: Sendable, Hashable, Codable {
    /// Price of one bitcoin by upper-case currency code.
    public var prices: [String: Decimal]

    /// Prices by currency code (any case).
    public init(_ prices: [String: Decimal] = PriceTable.defaultPrices) {
        self.prices = Dictionary(prices.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    /// USD 65000, EUR 60000, GBP 52000, CHF 57000.
    public static let defaultPrices: [String: Decimal] = ["USD": 65_000, "EUR": 60_000, "GBP": 52_000, "CHF": 57_000]

    /// The price in `currency` (any case).
    public subscript(currency: String) -> Decimal? {
        get { prices[currency.uppercased()] }
        set { prices[currency.uppercased()] = newValue }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode([String: Decimal].self)
        self.init(raw)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(prices)
    }

    /// A price as the APIs serve it: to 8 decimal places at most.
    static func rounded(_ price: Decimal) -> Decimal {
        var value = price
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 8, .plain)
        return rounded
    }
}
