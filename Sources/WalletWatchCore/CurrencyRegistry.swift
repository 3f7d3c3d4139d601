/// Where a currency comes from.
public enum CurrencyKind: String, Sendable, CaseIterable, Codable {
    /// ISO 4217 money (USD, EUR, JPY...).
    case iso
    /// A coin or token walletwatch knows (BTC, ETH, USDC...), with its CoinGecko id.
    case builtin
    /// A unit the user added with `currency add` (a share, a gram of gold, another coin).
    case custom
}

/// Everything walletwatch knows about one currency.
public struct CurrencyDefinition: Hashable, Sendable {
    public let code: String
    public let decimals: Int
    /// The coin's id at CoinGecko (`bitcoin`, `usd-coin`), which prices it; nil for ISO money and
    /// for a user's unit priced by hand (`rates set`).
    public let coingeckoID: String?
    /// A human name, when one is known.
    public let name: String?
    public let kind: CurrencyKind

    public init(code: String, decimals: Int, coingeckoID: String?, name: String?, kind: CurrencyKind) {
        self.code = code
        self.decimals = decimals
        self.coingeckoID = coingeckoID
        self.name = name
        self.kind = kind
    }

    public var currency: Currency { Currency(validCode: code, exponent: decimals) }
}

/// The currencies in effect: ISO 4217 money, the built-in coins and tokens (SPEC.md section 25),
/// and the units a user added to one database.
///
/// The user's units are data in the database (`currency add`), and a currency is read back from
/// stored rows inside GRDB's record initialisers, which take no context. So the store binds its
/// database's registry to ``current`` for the length of every database access (a task-local
/// value: scoped, never global), and the CLI binds it for the length of a command; outside
/// such a scope only ISO and built-in codes resolve, and a user's code is "unknown".
public struct CurrencyRegistry: Sendable, Hashable {
    /// The user's own units, by upper-case code.
    public let custom: [String: CurrencyDefinition]

    public init(custom: [CurrencyDefinition] = []) {
        self.custom = Dictionary(custom.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The registry in effect for the current task or synchronous scope.
    @TaskLocal public static var current = CurrencyRegistry()

    /// The currency for `code` (any case).
    public func currency(_ code: String) throws(CurrencyError) -> Currency {
        guard let definition = definition(code) else { throw CurrencyError(code: code) }
        return definition.currency
    }

    /// What is known of `code` (any case), or nil.
    public func definition(_ code: String) -> CurrencyDefinition? {
        let upper = code.uppercased()
        if let decimals = Self.iso4217[upper] {
            return CurrencyDefinition(code: upper, decimals: decimals, coingeckoID: nil, name: nil, kind: .iso)
        }
        return Self.builtInByCode[upper] ?? custom[upper]
    }

    /// Every currency, ISO money first, then the built-in coins and tokens, then the user's
    /// units; each group by code.
    public var all: [CurrencyDefinition] {
        Self.iso4217.keys.sorted().map { CurrencyDefinition(code: $0, decimals: Self.iso4217[$0]!, coingeckoID: nil, name: nil, kind: .iso) }
            + Self.builtIn.sorted { $0.code < $1.code }
            + custom.values.sorted { $0.code < $1.code }
    }

    /// The CoinGecko id that prices `currency`, or nil (ISO money, a unit priced by hand).
    public func coingeckoID(of currency: Currency) -> String? { definition(currency.code)?.coingeckoID }

    /// Checks a new unit of the user's: a code of 2 to 10 of `A-Z 0-9 .` that is neither ISO money
    /// nor built in nor already added, decimals 0 through 18, and a CoinGecko id, when given, of
    /// CoinGecko's form (lower-case letters, digits and dashes). Returns the definition to store;
    /// a malformed code is a ``UsageError``, a code already taken a ``Refusal``.
    public func validateNew(code: String, decimals: Int, coingeckoID: String?, name: String?) throws -> CurrencyDefinition {
        let upper = code.uppercased()
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.")
        guard (2...10).contains(upper.count), upper.allSatisfy({ allowed.contains($0) }) else {
            throw UsageError("currency code '\(code)': use 2 to 10 letters, digits or dots, such as GOLD or VWCE.DE")
        }
        if let existing = definition(upper) {
            let what = switch existing.kind {
            case .iso: "ISO 4217 money"
            case .builtin: "a built-in coin"
            case .custom: "already added"
            }
            throw Refusal("currency '\(upper)' is \(what); `walletwatch currency list` shows every currency")
        }
        guard (0...Currency.maximumExponent).contains(decimals) else {
            throw UsageError("--decimals \(decimals): use 0 through \(Currency.maximumExponent)")
        }
        if let coingeckoID {
            let idCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
            guard !coingeckoID.isEmpty, coingeckoID.count <= 100, coingeckoID.allSatisfy({ idCharacters.contains($0) }) else {
                throw UsageError("--coingecko '\(coingeckoID)': a CoinGecko id is lower-case letters, digits and dashes, as in its coin page's URL (such as 'tether-gold')")
            }
        }
        let trimmedName = name?.trimmingSpaces
        return CurrencyDefinition(code: upper, decimals: decimals, coingeckoID: coingeckoID,
                                  name: trimmedName?.isEmpty == false ? trimmedName : nil, kind: .custom)
    }

    /// The coins and tokens walletwatch knows (SPEC.md section 25), with their decimals and
    /// CoinGecko ids. A token's decimals here are its usual ones; an EVM source still reads
    /// `decimals()` from each contract and refuses one that differs.
    public static let builtIn: [CurrencyDefinition] = [
        ("BTC", 8, "bitcoin", "Bitcoin"),
        ("ETH", 18, "ethereum", "Ether"),
        ("POL", 18, "polygon-ecosystem-token", "Polygon"),
        ("BNB", 18, "binancecoin", "BNB"),
        ("SOL", 9, "solana", "Solana"),
        ("LTC", 8, "litecoin", "Litecoin"),
        ("USDC", 6, "usd-coin", "USD Coin"),
        ("USDT", 6, "tether", "Tether"),
        ("DAI", 18, "dai", "Dai"),
        ("EURC", 6, "euro-coin", "Euro Coin"),
        ("WBTC", 8, "wrapped-bitcoin", "Wrapped Bitcoin"),
    ].map { CurrencyDefinition(code: $0.0, decimals: $0.1, coingeckoID: $0.2, name: $0.3, kind: .builtin) }

    static let builtInByCode = Dictionary(uniqueKeysWithValues: builtIn.map { ($0.code, $0) })

    /// Active ISO 4217 codes and their exponents.
    static let iso4217: [String: Int] = {
        var table: [String: Int] = [
            "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
            "CLF": 4, "UYW": 4,
            "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
            "PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        ]
        let twoDecimals = """
            AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD \
            CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD \
            GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD \
            MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP \
            PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS \
            TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWG
            """
        for code in twoDecimals.split(separator: " ") { table[String(code)] = 2 }
        return table
    }()
}
