/// An exact amount: an integer count of a currency's minor unit. Never a floating-point number.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in minor units (satoshis, cents, yen); negative for withdrawals.
    public var minorUnits: Int64
    /// The currency the minor units belong to.
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in the given currency.
    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// The amount in major units with every decimal place of the currency: `250.50`, `0.01500000`.
    public var majorString: String { Money.majorString(minorUnits, exponent: currency.exponent) }

    /// The amount and its code: `250.50 USD`.
    public var description: String { "\(majorString) \(currency.code)" }

    /// Formats minor units as a major-unit decimal string with exactly `exponent` decimal places.
    public static func majorString(_ minorUnits: Int64, exponent: Int) -> String {
        let negative = minorUnits < 0
        // Magnitude as UInt64 so that Int64.min formats correctly.
        let magnitude = minorUnits.magnitude
        guard exponent > 0 else { return (negative ? "-" : "") + String(magnitude) }
        let scale = UInt64(Currency.powersOfTen[exponent])
        let whole = magnitude / scale
        let fraction = String(magnitude % scale)
        let padded = String(repeating: "0", count: exponent - fraction.count) + fraction
        return (negative ? "-" : "") + "\(whole).\(padded)"
    }
}
