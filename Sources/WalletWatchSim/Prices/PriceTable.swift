import Foundation

/// The coins' prices the simulated price APIs serve: bitcoin's by upper-case currency code
/// (`USD`, `EUR`), and other coins' by their CoinGecko id (`ethereum`, `usd-coin`), each by
/// currency code. Decimals, as walletwatch keeps rates. JSON form: bitcoin's prices at the top,
/// the other coins under `coins`:
///
///     {"USD": 65000.12, "EUR": 60012.5, "coins": {"ethereum": {"USD": 3000, "EUR": 2770}}}
///
/// mempool.space serves bitcoin only; CoinGecko serves every coin of the table. Without `coins`,
/// the other coins are ``defaultCoins``; `"coins": {}` serves bitcoin alone.
public struct PriceTable: Sendable, Hashable, Codable {
    /// Price of one bitcoin by upper-case currency code.
    public var prices: [String: Decimal]
    /// Price of one unit of each other coin, by CoinGecko id, then by upper-case currency code.
    public var coins: [String: [String: Decimal]]

    /// Bitcoin's prices by currency code (any case), and other coins' by id.
    public init(_ prices: [String: Decimal] = PriceTable.defaultPrices, coins: [String: [String: Decimal]] = PriceTable.defaultCoins) {
        self.prices = Self.upper(prices)
        self.coins = coins.mapValues(Self.upper)
    }

    /// USD 65000, EUR 60000, GBP 52000, CHF 57000.
    public static let defaultPrices: [String: Decimal] = ["USD": 65_000, "EUR": 60_000, "GBP": 52_000, "CHF": 57_000]

    /// Ether at USD 3000 (EUR 2770, GBP 2400, CHF 2630), and the dollar stablecoins USDC and
    /// USDT at USD 1 (EUR 0.92, GBP 0.80, CHF 0.88).
    public static let defaultCoins: [String: [String: Decimal]] = [
        "ethereum": ["USD": 3000, "EUR": 2770, "GBP": 2400, "CHF": 2630],
        "usd-coin": ["USD": 1, "EUR": Decimal(string: "0.92")!, "GBP": Decimal(string: "0.80")!, "CHF": Decimal(string: "0.88")!],
        "tether": ["USD": 1, "EUR": Decimal(string: "0.92")!, "GBP": Decimal(string: "0.80")!, "CHF": Decimal(string: "0.88")!],
    ]

    /// Bitcoin's price in `currency` (any case).
    public subscript(currency: String) -> Decimal? {
        get { prices[currency.uppercased()] }
        set { prices[currency.uppercased()] = newValue }
    }

    /// A coin's prices by upper-case currency code (`bitcoin` is the top-level table); nil for
    /// a coin the table does not have.
    public func prices(of id: String) -> [String: Decimal]? {
        id == "bitcoin" ? prices : coins[id]
    }

    /// This table with `patch`'s prices put over it: bitcoin's currencies and each coin's
    /// currencies that it names change, the rest stay.
    func merged(with patch: PricePatch) -> PriceTable {
        var result = self
        for (currency, price) in patch.prices { result.prices[currency.uppercased()] = price }
        for (id, prices) in patch.coins ?? [:] {
            for (currency, price) in prices { result.coins[id, default: [:]][currency.uppercased()] = price }
        }
        return result
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicKey.self)
        var prices: [String: Decimal] = [:]
        // Without `coins`, the other coins keep their default prices.
        var coins = Self.defaultCoins
        for key in container.allKeys {
            if key.stringValue == "coins" {
                coins = try container.decode([String: [String: Decimal]].self, forKey: key)
            } else {
                prices[key.stringValue] = try container.decode(Decimal.self, forKey: key)
            }
        }
        self.init(prices, coins: coins)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        for (currency, price) in prices.sorted(by: { $0.key < $1.key }) { try container.encode(price, forKey: DynamicKey(currency)) }
        if !coins.isEmpty { try container.encode(coins, forKey: DynamicKey("coins")) }
    }

    /// A price as the APIs serve it: to 8 decimal places at most.
    static func rounded(_ price: Decimal) -> Decimal {
        var value = price
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 8, .plain)
        return rounded
    }

    private static func upper(_ prices: [String: Decimal]) -> [String: Decimal] {
        Dictionary(prices.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { $1 })
    }
}

/// A change to some prices (`PATCH /control/prices`): bitcoin's currencies at the top, other
/// coins under `coins`; what it does not name stays as it is.
struct PricePatch: Decodable, Sendable {
    var prices: [String: Decimal] = [:]
    var coins: [String: [String: Decimal]]?

    init(prices: [String: Decimal], coins: [String: [String: Decimal]]?) {
        self.prices = prices
        self.coins = coins
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicKey.self)
        for key in container.allKeys {
            if key.stringValue == "coins" {
                coins = try container.decode([String: [String: Decimal]].self, forKey: key)
            } else {
                prices[key.stringValue] = try container.decode(Decimal.self, forKey: key)
            }
        }
    }
}
