import Foundation

/// The one place where walletwatch rounds money: half to even ("banker's rounding"), once, at the
/// end of a computation. Every conversion and every proportional share goes through here.
public enum Rounding {
    /// `numerator / denominator` rounded half to even. The denominator must not be zero.
    public static func halfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        precondition(denominator != 0, "division by zero in a money computation")
        var quotient = numerator / denominator
        let remainder = numerator % denominator
        guard remainder != 0 else { return quotient }
        let twiceRemainder = remainder.magnitude * 2
        let divisor = denominator.magnitude
        let awayFromZero: Int128 = (numerator < 0) != (denominator < 0) ? -1 : 1
        if twiceRemainder > divisor || (twiceRemainder == divisor && quotient % 2 != 0) {
            quotient += awayFromZero
        }
        return quotient
    }

    /// `numerator / denominator` rounded half to even, as minor units; nil when it does not fit.
    public static func halfEvenMinorUnits(_ numerator: Int128, _ denominator: Int128) -> Int64? {
        Int64(exactly: halfEven(numerator, denominator))
    }

    /// A decimal rounded half to even to an integer; nil when it does not fit in 64 bits.
    public static func halfEven(_ value: Decimal) -> Int64? {
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, 0, .bankers)
        // The description of an integral Decimal is its exact digits; parse them back exactly.
        return Int64(rounded.description)
    }
}
