/// A currency: its code and the number of decimal places of its smallest unit.
///
/// Amounts are always integer counts of the smallest unit: satoshis for BTC (8 decimals), wei
/// for ETH (18), cents for USD and EUR (2), whole yen for JPY (0). Which codes exist, and with how
/// many decimals, is data: ISO 4217 money, the coins and tokens walletwatch knows, and the units a
/// user adds (``CurrencyRegistry``).
public struct Currency: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The upper-case code, such as `BTC`, `USDC` or `USD`.
    public let code: String
    /// The number of decimal places of the smallest unit (0 through 18).
    public let exponent: Int

    /// Looks a code up (case-insensitively) in the registry in effect: ISO 4217 codes, the
    /// built-in coins and tokens, and, where a database's registry is bound
    /// (``CurrencyRegistry/current``), the units its user added.
    public init(code: String) throws(CurrencyError) {
        self = try CurrencyRegistry.current.currency(code)
    }

    /// A currency whose code and decimals are already known to be valid.
    init(validCode code: String, exponent: Int) {
        self.code = code
        self.exponent = exponent
    }

    public static let btc = Currency(validCode: "BTC", exponent: 8)
    public static let eth = Currency(validCode: "ETH", exponent: 18)
    public static let usd = Currency(validCode: "USD", exponent: 2)
    public static let eur = Currency(validCode: "EUR", exponent: 2)
    public static let jpy = Currency(validCode: "JPY", exponent: 0)

    /// The most decimals a currency may have: 18, as ETH's wei and most ERC-20 tokens.
    public static let maximumExponent = 18

    /// 10^exponent: how many smallest units make one whole unit.
    public var minorUnitsPerMajor: Int128 { Currency.powerOfTen(exponent) }

    /// Whether this is ISO 4217 money (fiat), as opposed to a coin, a token or a unit of the user's.
    public var isMoney: Bool { CurrencyRegistry.iso4217[code] != nil }

    public var description: String { code }

    public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.code < rhs.code }

    /// 10^exponent for exponents 0 through 38 (the digits an `Int128` holds).
    public static func powerOfTen(_ exponent: Int) -> Int128 { powersOfTen[exponent] }

    static let powersOfTen: [Int128] = (0...38).map { power in
        (0..<power).reduce(Int128(1)) { value, _ in value * 10 }
    }
}

/// A currency code that walletwatch does not know, or cannot accept where it was given.
public struct CurrencyError: Error, Equatable, CustomStringConvertible, Classified {
    /// The code as the user wrote it.
    public let code: String
    /// Why it was refused; nil for a code that is simply unknown.
    public let reason: String?

    public init(code: String, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    public var description: String {
        if let reason { return "currency '\(code)': \(reason)" }
        return "unknown currency '\(code)'; use an ISO 4217 code such as USD, a coin such as BTC or ETH (`walletwatch currency list` "
            + "shows them all), or add your own unit with `walletwatch currency add \(code.uppercased()) --decimals N`"
    }

    public var kind: ErrorKind { .usage }
}
