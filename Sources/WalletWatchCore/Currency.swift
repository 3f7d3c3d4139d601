/// A currency code with the number of decimal places of its minor unit (ISO 4217 exponent).
///
/// Amounts are always integer counts of the minor unit: satoshis for BTC (exponent 8), cents for
/// USD and EUR (exponent 2), whole yen for JPY (exponent 0).
public struct Currency: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The upper-case code, such as `BTC` or `USD`.
    public let code: String
    /// The number of decimal places of the minor unit.
    public let exponent: Int

    /// Looks a code up (case-insensitively) among the currencies walletwatch knows.
    public init(code: String) throws(CurrencyError) {
        let upper = code.uppercased()
        guard let exponent = Currency.exponents[upper] else { throw CurrencyError(code: code) }
        self.code = upper
        self.exponent = exponent
    }

    private init(known code: String) {
        self.code = code
        self.exponent = Currency.exponents[code]!
    }

    public static let btc = Currency(known: "BTC")
    public static let usd = Currency(known: "USD")
    public static let eur = Currency(known: "EUR")
    public static let jpy = Currency(known: "JPY")

    /// 10^exponent: how many minor units make one major unit.
    public var minorUnitsPerMajor: Int64 { Currency.powersOfTen[exponent] }

    public var description: String { code }

    public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.code < rhs.code }

    /// 10^exponent for exponents 0 through 18.
    public static func powerOfTen(_ exponent: Int) -> Int64 { powersOfTen[exponent] }

    static let powersOfTen: [Int64] = (0...18).map { power in
        (0..<power).reduce(Int64(1)) { value, _ in value * 10 }
    }

    /// Active ISO 4217 codes whose exponent is not 2, plus BTC.
    private static let nonTwoExponents: [String: Int] = [
        "BTC": 8,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
        "PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
    ]

    /// Active ISO 4217 codes with two decimal places.
    private static let twoExponentCodes = """
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD \
        CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD \
        GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD \
        MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP \
        PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS \
        TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWG
        """.split(separator: " ").map(String.init)

    private static let exponents: [String: Int] = {
        var table = nonTwoExponents
        for code in twoExponentCodes { table[code] = 2 }
        return table
    }()
}

/// A currency code that walletwatch does not know.
public struct CurrencyError: Error, Equatable, CustomStringConvertible, Classified {
    /// The code as the user wrote it.
    public let code: String
    public var description: String {
        "unknown currency '\(code)'; use an ISO 4217 code such as USD, EUR, JPY, or BTC"
    }
    public var kind: ErrorKind { .usage }
}
