/// An amount as the user wrote it on the command line: an exact amount, or a share of a balance.
public enum AmountInput: Hashable, Sendable {
    /// An exact amount in the currency's minor units (`250.50` USD -> 25050, `1500sat` -> 1500).
    case minorUnits(Int64)
    /// A percentage of the asset's current balance (`40%`).
    case percent(Percentage)

    /// The forms accepted, for error messages.
    static func accepted(_ currency: Currency, percentAllowed: Bool) -> String {
        var forms = ["250.50", "0.015"]
        if currency == .btc { forms.append("1500sat") }
        if percentAllowed { forms.append("40%") }
        return forms.joined(separator: ", ")
    }

    /// Parses `250.50`, `0.015`, `-20`, `1500sat` (BTC only) and, when allowed, `40%`.
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
        for suffix in ["sats", "sat"] where trimmed.lowercased().hasSuffix(suffix) {
            guard currency == .btc else {
                throw UsageError("'\(text)': sats are only for BTC amounts; write \(currency.code) like \(accepted)")
            }
            let digits = String(trimmed.dropLast(suffix.count))
            guard let decimal = ParsedDecimal(digits), decimal.fractionDigits.isEmpty,
                  let sats = decimal.scaled(to: 0)
            else {
                throw UsageError("'\(text)' is not a whole number of sats; write it like 1500sat")
            }
            return .minorUnits(sats)
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
    public func resolve(balance: Int64) -> Int64 {
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
    public var isWhole: Bool { Int128(digits) == 100 * Int128(Currency.powersOfTen[decimalPlaces]) }

    /// This share of `amount`, rounded half to even to a minor unit.
    public func share(of amount: Int64) -> Int64 {
        let denominator = 100 * Int128(Currency.powersOfTen[decimalPlaces])
        return Int64(clamping: Rounding.halfEven(Int128(amount) * Int128(digits), denominator))
    }

    /// Several shares of one `amount`, rounded together (largest remainder): their sum is the
    /// sum of the percentages' exact shares rounded half to even once, so percentages that add
    /// up to 100% or less never take more than `amount` (50% + 50% of 10.03 is 5.02 + 5.01, not
    /// 5.02 twice). Alone, a percentage gets the same as ``share(of:)``.
    public static func shares(of amount: Int64, _ percentages: [Percentage]) -> [Int64] {
        let places = 6
        let denominator = 100 * Int128(Currency.powersOfTen[places])
        let numerators = percentages.map { Int128(amount) * Int128($0.digits) * Int128(Currency.powersOfTen[places - $0.decimalPlaces]) }
        var shares = numerators.map { $0 / denominator }
        let total = Rounding.halfEven(numerators.reduce(0, +), denominator)
        var left = Int(total - shares.reduce(0, +))
        // The largest remainders get the units left; ties go to the earlier percentage.
        for index in numerators.indices.sorted(by: { numerators[$0] % denominator > numerators[$1] % denominator }) where left > 0 {
            shares[index] += 1
            left -= 1
        }
        return shares.map { Int64(clamping: $0) }
    }

    public var description: String { Money.majorString(digits, exponent: decimalPlaces) + "%" }

    static func parse(_ number: String, original: String) throws(UsageError) -> Percentage {
        guard let decimal = ParsedDecimal(number), !decimal.negative, decimal.fractionDigits.count <= 6,
              let digits = decimal.scaled(to: decimal.fractionDigits.count)
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

    /// The number times 10^places as an integer; nil on overflow. `places` must cover the fraction.
    func scaled(to places: Int) -> Int64? {
        let padded = fractionDigits + String(repeating: "0", count: places - fractionDigits.count)
        let digits = (integerDigits + padded).drop { $0 == "0" }
        guard digits.count <= 18, let magnitude = Int64(digits.isEmpty ? "0" : String(digits)) else {
            return nil
        }
        return negative ? -magnitude : magnitude
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
