/// An exact amount: an integer count of a currency's smallest unit. Never a floating-point number.
///
/// 128 bits: an 18-decimal token counts in units of 10^-18, so a 64-bit integer would end at
/// about 9.22 whole tokens; `Int128` holds 1.7 x 10^20 whole units even at 18 decimals.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in the smallest unit (satoshis, wei, cents, yen); negative for withdrawals.
    public var minorUnits: Int128
    /// The currency the minor units belong to.
    public let currency: Currency

    public init(minorUnits: Int128, currency: Currency) {
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
    public static func majorString(_ minorUnits: Int128, exponent: Int) -> String {
        let negative = minorUnits < 0
        // The magnitude as UInt128, so that Int128.min formats correctly.
        let magnitude = minorUnits.magnitude
        guard exponent > 0 else { return (negative ? "-" : "") + String(magnitude) }
        let scale = UInt128(Currency.powerOfTen(exponent))
        let whole = magnitude / scale
        let fraction = String(magnitude % scale)
        let padded = String(repeating: "0", count: exponent - fraction.count) + fraction
        return (negative ? "-" : "") + "\(whole).\(padded)"
    }

    /// At most this many decimal places in a table (``readableString(maximumDecimals:)``).
    public static let readableDecimals = 8

    /// The amount for reading in a table: every decimal place up to `maximumDecimals`; beyond
    /// that, cut to `maximumDecimals` places (towards zero) and marked with a trailing `…`, so a
    /// reader knows the figure is shortened. JSON and CSV always carry the exact amount.
    /// `12.345678901234567891` ETH reads `12.34567890…`; `0.01500000` BTC is unchanged.
    public static func readableString(_ minorUnits: Int128, exponent: Int, maximumDecimals: Int = readableDecimals) -> String {
        let exact = majorString(minorUnits, exponent: exponent)
        guard exponent > maximumDecimals else { return exact }
        let cut = exact.dropLast(exponent - maximumDecimals)
        let dropped = exact.suffix(exponent - maximumDecimals)
        return dropped.allSatisfy({ $0 == "0" }) ? String(cut) : String(cut) + "…"
    }

    /// ``readableString(_:exponent:maximumDecimals:)`` of this amount.
    public var readableString: String { Money.readableString(minorUnits, exponent: currency.exponent) }
}
