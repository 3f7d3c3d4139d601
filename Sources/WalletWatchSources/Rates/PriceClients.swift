import Foundation
import WalletWatchCore
import WalletWatchNet

/// A coin a price API is asked about: the currency and the id the API knows it by
/// (CoinGecko's `bitcoin`, `ethereum`, `usd-coin`; ``CurrencyRegistry/coingeckoID(of:)``).
public struct PricedCoin: Sendable, Hashable {
    public let currency: Currency
    public let id: String

    public init(currency: Currency, id: String) {
        self.currency = currency
        self.id = id
    }

    /// Bitcoin, the one coin mempool.space prices.
    public static let bitcoin = PricedCoin(currency: .btc, id: "bitcoin")
}

/// Fetches coins' prices in other currencies from a price API.
public protocol PriceClient: Sendable {
    /// The provider's name, stored with each rate.
    var provider: String { get }
    /// COIN/QUOTE for each coin and quote the provider has (missing ones are left out), and the
    /// pairs it answered without a usable price.
    func prices(of coins: [PricedCoin], in quotes: [Currency], now: Instant) async throws -> PriceAnswer
}

/// A price API's answer: the prices it has, and the pairs it named without one.
public struct PriceAnswer: Sendable, Equatable {
    /// A pair the provider answered with no usable price: mempool says -1 for a currency none of
    /// its exchange feeds priced, CoinGecko may say null. Such a value is never a rate: it is
    /// left out, and the rest of the answer is kept.
    public struct Unpriced: Sendable, Hashable {
        public let pair: CurrencyPair
        /// The value as the provider wrote it (`-1`, `0`, `null`).
        public let answered: String

        public init(pair: CurrencyPair, answered: String) {
            self.pair = pair
            self.answered = answered
        }
    }

    /// COIN/QUOTE rates, all positive.
    public var rates: [ExchangeRate]
    /// Pairs asked for whose value was null, zero or negative.
    public var unpriced: [Unpriced]
    /// Coins asked for that the answer did not name at all (CoinGecko leaves out an id it does
    /// not know).
    public var unknown: [PricedCoin]

    public init(rates: [ExchangeRate], unpriced: [Unpriced] = [], unknown: [PricedCoin] = []) {
        self.rates = rates
        self.unpriced = unpriced
        self.unknown = unknown
    }

    /// Both answers together (two providers' parts of one refresh).
    public func merged(with other: PriceAnswer) -> PriceAnswer {
        PriceAnswer(rates: rates + other.rates, unpriced: unpriced + other.unpriced, unknown: unknown + other.unknown)
    }
}

/// Reads one price of an answer: a positive decimal, or the text of a value that is no price
/// (null, zero, negative). Anything else (a string, an object) is malformed and fails the answer.
enum PriceValue {
    case price(Decimal)
    case noPrice(answered: String)

    static func read(_ reader: inout JSONReader) throws -> PriceValue {
        if reader.readNull() { return .noPrice(answered: "null") }
        let price = try reader.readDecimal()
        return price > 0 ? .price(price) : .noPrice(answered: "\(price)")
    }
}

/// CoinGecko: every coin of a refresh in one request,
/// `GET /simple/price?ids=bitcoin,ethereum&vs_currencies=usd,eur` ->
/// `{"bitcoin":{"usd":...,"eur":...},"ethereum":{"usd":...,"eur":...}}`.
public struct CoinGeckoClient: PriceClient {
    public let provider = "coingecko"
    let requester: SourceRequester

    public init(baseURL: String, http: any HTTPClient) {
        requester = SourceRequester(source: "rates", baseURL: baseURL, token: nil, http: http)
    }

    /// Only the ids and currencies asked for are read: the answer may carry other keys under
    /// an id (`usd_market_cap`, `usd_24h_change`, which may be negative, `last_updated_at`)
    /// that are no prices. An id the answer leaves out (CoinGecko's way with an id it does not
    /// know) is reported in ``PriceAnswer/unknown``; an answer that names none of the ids asked
    /// is refused.
    public func prices(of coins: [PricedCoin], in quotes: [Currency], now: Instant) async throws -> PriceAnswer {
        var ids: [String] = []
        for coin in coins where !ids.contains(coin.id) { ids.append(coin.id) }
        var codes: [String] = []
        for quote in quotes where !codes.contains(quote.code.lowercased()) { codes.append(quote.code.lowercased()) }
        let asked = coins.filter { coin in quotes.contains { $0 != coin.currency } }
        guard !asked.isEmpty else { return PriceAnswer(rates: []) }
        let path = "/simple/price?ids=" + ids.joined(separator: ",") + "&vs_currencies=" + codes.joined(separator: ",")
        let values: [String: [String: PriceValue]] = try await requester.get(path) { reader in
            var found: [String: [String: PriceValue]] = [:]
            try reader.readObject { reader, key in
                guard ids.contains(key.string) else { return try reader.skipValue() }
                var values: [String: PriceValue] = [:]
                try reader.readObject { reader, key in
                    guard codes.contains(key.string) else { return try reader.skipValue() }
                    values[key.string.uppercased()] = try PriceValue.read(&reader)
                }
                found[key.string] = values
            }
            guard !found.isEmpty else { throw reader.missing(ids[0]) }
            return found
        }
        var answer = PriceAnswer(rates: [])
        for coin in asked {
            guard let coinValues = values[coin.id] else {
                answer.unknown.append(coin)
                continue
            }
            answer = answer.merged(with: PriceAnswer.collect(coinValues, base: coin.currency, quotes: quotes, provider: provider, now: now))
        }
        return answer
    }
}

/// mempool.space: `GET /v1/prices` -> `{"time":...,"USD":...,"EUR":...}`, bitcoin only.
public struct MempoolPriceClient: PriceClient {
    public let provider = "mempool"
    let requester: SourceRequester

    public init(baseURL: String, http: any HTTPClient) {
        requester = SourceRequester(source: "rates", baseURL: baseURL, token: nil, http: http)
    }

    /// Bitcoin's prices; any other coin of `coins` is left out (the caller asks CoinGecko).
    public func prices(of coins: [PricedCoin], in quotes: [Currency], now: Instant) async throws -> PriceAnswer {
        guard coins.contains(where: { $0.currency == .btc }) else { return PriceAnswer(rates: []) }
        return try await prices(in: quotes, now: now)
    }

    /// BTC/currency for each of `currencies` mempool has. mempool answers -1 for a currency none
    /// of its exchange feeds priced (its price updater starts every currency at -1 and keeps -1
    /// where no feed answered): that currency is left out, the others are kept.
    public func prices(in currencies: [Currency], now: Instant) async throws -> PriceAnswer {
        let wanted = Set(currencies.map(\.code))
        let values: [String: PriceValue] = try await requester.get("/v1/prices") { reader in
            var values: [String: PriceValue] = [:]
            var sawTime = false
            try reader.readObject { reader, key in
                if key.is("time") {
                    _ = try reader.readNonNegativeInt64()
                    sawTime = true
                } else if wanted.contains(key.string) {
                    values[key.string] = try PriceValue.read(&reader)
                } else {
                    try reader.skipValue()
                }
            }
            guard sawTime else { throw reader.missing("time") }
            return values
        }
        return PriceAnswer.collect(values, base: .btc, quotes: currencies, provider: provider, now: now)
    }
}

extension PriceAnswer {
    /// The rates and the unpriced pairs of `base` in `values` (by upper-case quote code), in the
    /// order of `quotes`; quotes the answer did not name, and `base` itself, are in neither.
    static func collect(_ values: [String: PriceValue], base: Currency, quotes: [Currency], provider: String, now: Instant) -> PriceAnswer {
        var answer = PriceAnswer(rates: [])
        for quote in quotes where quote != base {
            let pair = CurrencyPair(base: base, quote: quote)
            switch values[quote.code] {
            case .price(let rate)?:
                answer.rates.append(ExchangeRate(pair: pair, rate: rate, fetchedAt: now, provider: provider))
            case .noPrice(let answered)?:
                answer.unpriced.append(Unpriced(pair: pair, answered: answered))
            case nil:
                break
            }
        }
        return answer
    }
}
