import Foundation
import WalletWatchCore

/// Ratios printed as JSON numbers: exact, rounded half to even to six decimal places, trailing
/// zeros trimmed (`0.125`, `1`, `0.333333`).
public enum Fraction {
    public static func text(_ numerator: Int128, _ denominator: Int128, places: Int = 6) -> String {
        guard denominator != 0 else { return "0" }
        let scaled = Rounding.halfEven(numerator, times: Currency.powerOfTen(places), over: denominator) ?? (numerator < 0 ? .min : .max)
        var text = Money.majorString(scaled, exponent: places)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A decimal ratio (a return) the same way: `0.169924`.
    public static func text(_ value: Decimal, places: Int = 6) -> String {
        guard let scaled = Rounding.halfEven(value * Decimal(minorUnits: Currency.powerOfTen(places))) else { return "\(value)" }
        return text(scaled, Currency.powerOfTen(places), places: places)
    }

    /// A decimal ratio as a JSON number, or null when unknown.
    public static func json(_ value: Decimal?) -> JSONValue {
        value.map { .number(text($0)) } ?? .null
    }

    /// A fraction as a JSON number.
    public static func json(_ numerator: Int128, _ denominator: Int128) -> JSONValue {
        .number(text(numerator, denominator))
    }

    /// A fraction as a JSON number, or null when unknown.
    public static func json(_ fraction: (numerator: Int128, denominator: Int128)?) -> JSONValue {
        fraction.map { json($0.numerator, $0.denominator) } ?? .null
    }
}
