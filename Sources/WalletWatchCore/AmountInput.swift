/// An amount as the user wrote it on the command line: an exact amount, or a share of a balance.
public enum AmountInput: Hashable, Sendable {
    /// An exact amount in the currency's smallest units (`250.50` USD -> 25050, `1500sat` -> 1500).
    case minorUnits(Int128)
    /// A percentage of the asset's current balance (`40%`).
    case percent(Percentage)

    /// A suffix that names a currency's smallest unit, or a multiple of it.
    private struct UnitSuffix {
        /// As written after the number (lower-case).
        let names: [String]
        /// Smallest units per one of these.
        let scale: Int128
        /// Whether the suffix is a unit of `currency`.
        let fits: @Sendable (Currency) -> Bool
        /// Says which currencies take it.
        let forWhom: String
    }

    /// `sat` is bitcoin's smallest unit; `wei` the smallest unit of ether and of every currency
    /// with 18 decimals (POL, BNB, DAI and most tokens count in wei too), `gwei` a billion wei.
    private static let suffixes: [UnitSuffix] = [
        UnitSuffix(names: ["sats", "sat"], scale: 1, fits: { $0 == .btc }, forWhom: "BTC amounts"),
        UnitSuffix(names: ["gwei"], scale: 1_000_000_000, fits: { $0.exponent == 18 }, forWhom: "18-decimal currencies such as ETH"),
        UnitSuffix(names: ["wei"], scale: 1, fits: { $0.exponent == 18 }, forWhom: "18-decimal currencies such as ETH"),
    ]

    /// The forms accepted, for error messages.
    static func accepted(_ currency: Currency, percentAllowed: Bool) -> String {
        var forms = ["250.50", "0.015"]
        if currency == .btc { forms.append("1500sat") }
        if currency.exponent == 18 { forms += ["21gwei", "5000wei"] }
        if percentAllowed { forms.append("40%") }
        return forms.joined(separator: ", ")
    }

    /// Parses `250.50`, `0.015`, `-20`, `12.345678901234567891` (ETH), `1500sat` (BTC only),
    /// `21gwei` and `5000wei` (18-decimal currencies) and, when allowed, `40%`.
    ///
    /// Input with more decimal places than the currency has is refused rather than rounded: a
    /// typed amount is taken exactly as written or not at all.
    public static func parse(
        _ text: String, currency: Currency, allowPercent: Bool = false
    ) throws(UsageError) -> AmountInput {
        let trimmed = text.trimmingSpaces
        let accepted = accepted(currency, percentAllowed: allowPercent)
        if trimmed.hasSuffix("%") {
            guard allowPercent else {
                throw UsageError("'\(text)': a percentage is not accepted here; write an amount like \(accepted)")
            }
            return .percent(try Percentage.parse(String(trimmed.dropLast()), original: text))
        }
        let lower = trimmed.lowercased()
        for suffix in suffixes {
            guard let name = suffix.names.first(where: { lower.hasSuffix($0) }) else { continue }
            guard suffix.fits(currency) else {
                throw UsageError("'\(text)': \(name) are only for \(suffix.forWhom); write \(currency.code) like \(accepted)")
            }
            let digits = String(trimmed.dropLast(name.count))
            guard let decimal = ParsedDecimal(digits), decimal.fractionDigits.isEmpty,
                  let count = decimal.scaled(to: 0)
            else {
                throw UsageError("'\(text)' is not a whole number of \(name); write it like 1500\(name)")
            }
            let (units, overflow) = count.multipliedReportingOverflow(by: suffix.scale)
            guard !overflow else { throw UsageError("'\(text)' is too large an amount") }
            return .minorUnits(units)
        }
        guard let decimal = ParsedDecimal(trimmed) else {
            throw UsageError("'\(text)' is not an amount; write it like \(accepted)")
        }
        guard decimal.fractionDigits.count <= currency.exponent else {
            let places = currency.exponent == 0 ? "no decimal places" : "\(currency.exponent) decimal places"
            throw UsageError("'\(text)' has more decimals than \(currency.code) allows (\(places))")
        }
        guard let minor = decimal.scaled(to: currency.exponent) else {
            throw UsageError("'\(text)' is too large an amount")
        }
        return .minorUnits(minor)
    }

    /// Parses an exact amount (no percentage) and returns it as money.
    public static func parseMoney(_ text: String, currency: Currency) throws(UsageError) -> Money {
        guard case .minorUnits(let minor) = try parse(text, currency: currency) else {
            preconditionFailure("percentages are refused by parse when not allowed")
        }
        return Money(minorUnits: minor, currency: currency)
    }

    /// The amount in minor units for an asset whose current balance is `balance`.
    public func resolve(balance: Int128) -> Int128 {
        switch self {
        case .minorUnits(let value): value
        case .percent(let percentage): percentage.share(of: balance)
        }
    }
}

/// A non-negative percentage kept exactly as written: `33.33%` is 3333 with two decimal places.
public struct Percentage: Hashable, Sendable, CustomStringConvertible {
    /// The digits of the percentage without its decimal point.
    public let digits: Int64
    /// How many of those digits are decimal places.
    public let decimalPlaces: Int

    public init(digits: Int64, decimalPlaces: Int) {
        self.digits = digits
        self.decimalPlaces = decimalPlaces
    }

    /// Exactly 100%.
    public static let whole = Percentage(digits: 100, decimalPlaces: 0)

    /// True for 100% however it was written (`100`, `100.0`).
    public var isWhole: Bool { Int128(digits) == 100 * Currency.powerOfTen(decimalPlaces) }

    /// This share of `amount`, rounded half to even to a minor unit. (A share above 100% of an
    /// amount near the 128-bit limit, which does not fit, is clamped to the limit.)
    public func share(of amount: Int128) -> Int128 {
        let denominator = 100 * Currency.powerOfTen(decimalPlaces)
        return Rounding.halfEven(amount, times: Int128(digits), over: denominator) ?? (amount < 0 ? .min : .max)
    }

    /// Several shares of one `amount`, rounded together (largest remainder): their sum is the
    /// sum of the percentages' exact shares rounded half to even once, so percentages that add
    /// up to 100% or less never take more than `amount` (50% + 50% of 10.03 is 5.02 + 5.01, not
    /// 5.02 twice). Alone, a percentage gets the same as ``share(of:)``.
    public static func shares(of amount: Int128, _ percentages: [Percentage]) -> [Int128] {
        // Each share is amount x digits / (100 x 10^places): exact with a 256-bit product.
        // The units left after flooring every share go to the largest remainders.
        let exact = percentages.map { percentage -> (share: Int128, remainder: Int128, denominator: Int128) in
            let denominator = 100 * Currency.powerOfTen(percentage.decimalPlaces)
            // A share too large for 128 bits (thousands of percent of a near-limit amount) is
            // clamped: such a set is refused as above the balance anyway.
            let floor = Rounding.truncatingDivision(amount, times: Int128(percentage.digits), over: denominator)
                ?? (amount < 0 ? .min : .max, 0)
            return (floor.quotient, floor.remainder, denominator)
        }
        var shares = exact.map(\.share)
        // The sum of the exact shares, rounded half to even once: the floors plus the
        // remainders' sum (each remainder / its denominator, brought to one denominator of
        // 100 x 10^6), whose rounding of an exact half looks at the parity of the whole sum.
        let commonDenominator = 100 * Currency.powerOfTen(6)
        let remainderSum = exact.reduce(Int128(0)) { sum, item in
            sum + item.remainder * (commonDenominator / item.denominator)
        }
        let (wholeUnits, fraction) = remainderSum.quotientAndRemainder(dividingBy: commonDenominator)
        let floorsAndWhole = shares.reduce(0, +) + wholeUnits
        let roundsUp = fraction * 2 > commonDenominator || (fraction * 2 == commonDenominator && floorsAndWhole % 2 != 0)
        var left = Int(wholeUnits) + (roundsUp ? 1 : 0)
        // The largest remainders get the units left; ties go to the earlier percentage.
        let order = exact.indices.sorted { lhs, rhs in
            exact[lhs].remainder * (commonDenominator / exact[lhs].denominator) > exact[rhs].remainder * (commonDenominator / exact[rhs].denominator)
        }
        for index in order where left > 0 {
            shares[index] += 1
            left -= 1
        }
        return shares
    }

    public var description: String { Money.majorString(Int128(digits), exponent: decimalPlaces) + "%" }

    static func parse(_ number: String, original: String) throws(UsageError) -> Percentage {
        guard let decimal = ParsedDecimal(number), !decimal.negative, decimal.fractionDigits.count <= 6,
              let scaled = decimal.scaled(to: decimal.fractionDigits.count), let digits = Int64(exactly: scaled)
        else {
            throw UsageError("'\(original)' is not a percentage; write it like 40% or 12.5%")
        }
        return Percentage(digits: digits, decimalPlaces: decimal.fractionDigits.count)
    }
}

/// A plain decimal number split into its parts: optional sign, integer digits, fraction digits.
struct ParsedDecimal {
    let negative: Bool
    let integerDigits: Substring
    let fractionDigits: Substring

    init?(_ text: String) {
        var rest = Substring(text)
        negative = rest.first == "-"
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        integerDigits = parts[0]
        fractionDigits = parts.count == 2 ? parts[1] : ""
        let isDigits: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty,
              isDigits(integerDigits), isDigits(fractionDigits),
              parts.count == 1 || !fractionDigits.isEmpty
        else { return nil }
    }

    /// The number times 10^places as an integer; nil beyond 128 bits. `places` must cover the fraction.
    func scaled(to places: Int) -> Int128? {
        let padded = fractionDigits + String(repeating: "0", count: places - fractionDigits.count)
        let digits = (integerDigits + padded).drop { $0 == "0" }
        guard digits.count <= 39 else { return nil }
        return Int128((negative ? "-" : "") + (digits.isEmpty ? "0" : String(digits)))
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    public var trimmingSpaces: String {
        // Indices, not a reversed copy: names are trimmed several times per line of an import
        // of millions of labels, and nearly always have nothing to trim.
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return first == startIndex && index(after: last) == endIndex ? self : String(self[first...last])
    }
}
