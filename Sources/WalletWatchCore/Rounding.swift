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
        // |remainder| < |denominator|, so comparing it with what is left of the denominator
        // cannot overflow where doubling it could.
        let rest = remainder.magnitude
        let left = denominator.magnitude - rest
        let awayFromZero: Int128 = (numerator < 0) != (denominator < 0) ? -1 : 1
        if rest > left || (rest == left && quotient % 2 != 0) {
            quotient += awayFromZero
        }
        return quotient
    }

    /// `value * multiplier / divisor` rounded half to even, through a 256-bit product: exact for
    /// every 128-bit input (an 18-decimal balance times a percentage's digits would overflow
    /// 128 bits on the way). Nil when the divisor is zero or the result does not fit in `Int128`.
    public static func halfEven(_ value: Int128, times multiplier: Int128, over divisor: Int128) -> Int128? {
        guard divisor != 0 else { return nil }
        let negative = ((value < 0) != (multiplier < 0)) != (divisor < 0)
        let product = value.magnitude.multipliedFullWidth(by: multiplier.magnitude)
        let magnitudeDivisor = divisor.magnitude
        // The quotient fits in 128 bits exactly when the high half is below the divisor.
        guard product.high < magnitudeDivisor else { return nil }
        var (quotient, remainder) = magnitudeDivisor.dividingFullWidth(product)
        if remainder != 0 {
            let left = magnitudeDivisor - remainder
            if remainder > left || (remainder == left && quotient % 2 != 0) {
                guard quotient < UInt128.max else { return nil }
                quotient += 1
            }
        }
        if negative {
            guard quotient <= UInt128(Int128.max) + 1 else { return nil }
            return quotient == UInt128(Int128.max) + 1 ? Int128.min : -Int128(quotient)
        }
        return Int128(exactly: quotient)
    }

    /// `value * multiplier / divisor` truncated towards zero, with its remainder (which has the
    /// sign of the product), through a 256-bit product; nil when the divisor is not positive,
    /// the multiplier is negative, or the quotient does not fit in `Int128`.
    public static func truncatingDivision(_ value: Int128, times multiplier: Int128, over divisor: Int128) -> (quotient: Int128, remainder: Int128)? {
        guard divisor > 0, multiplier >= 0 else { return nil }
        let product = value.magnitude.multipliedFullWidth(by: multiplier.magnitude)
        guard product.high < divisor.magnitude else { return nil }
        let (quotient, remainder) = divisor.magnitude.dividingFullWidth(product)
        // remainder < divisor fits; the quotient fits when it is within Int128's range.
        guard quotient <= UInt128(Int128.max) else { return nil }
        return value < 0 ? (-Int128(quotient), -Int128(remainder)) : (Int128(quotient), Int128(remainder))
    }

    /// A decimal rounded half to even to an integer; nil when it does not fit in 128 bits.
    public static func halfEven(_ value: Decimal) -> Int128? {
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, 0, .bankers)
        // The description of an integral Decimal is its exact digits; parse them back exactly.
        return Int128(rounded.description)
    }
}

extension Decimal {
    /// An amount of smallest units as a decimal: exact up to 38 digits (Foundation's `Decimal`
    /// holds 38); beyond that, rounded to its 38 most significant digits.
    public init(minorUnits: Int128) {
        if let small = Int64(exactly: minorUnits) {
            self.init(small)
        } else {
            self = Decimal(string: String(minorUnits)) ?? .nan
        }
    }
}
