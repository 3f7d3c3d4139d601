import Foundation
import WalletWatchCore
import WalletWatchNet

/// Fetches BTC prices in fiat currencies from a price API.
public protocol PriceClient: Sendable {
    /// The provider's name, stored with each rate.
    var provider: String { get }
    /// BTC/`currency` for each currency the provider has (missing ones are left out), and the
    /// currencies it answered without a usable price.
    func prices(in currencies: [Currency], now: Instant) async throws -> PriceAnswer
}

/// A price API's answer: the prices it has, and the currencies it named without one.
public struct PriceAnswer: Sendable, Equatable {
    /// A currency the provider answered with no usable price: mempool says -1 for a currency
    /// none of its exchange feeds priced, CoinGecko may say null. Such a value is never a
    /// rate: it is left out, and the rest of the answer is kept.
    public struct Unpriced: Sendable, Hashable {
        public let currency: Currency
        /// The value as the provider wrote it (`-1`, `0`, `null`).
        public let answered: String

        public init(currency: Currency, answered: String) {
            self.currency = currency
            self.answered = answered
        }
    }

    /// BTC/currency rates, all positive.
    public var rates: [ExchangeRate]
    /// Currencies asked for whose value was null, zero or negative.
    public var unpriced: [Unpriced]

    public init(rates: [ExchangeRate], unpriced: [Unpriced] = []) {
        self.rates = rates
        self.unpriced = unpriced
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

/// CoinGecko: `GET /simple/price?ids=bitcoin&vs_currencies=usd,eur` -> `{"bitcoin":{"usd":...}}`.
public struct CoinGeckoClient: PriceClient {
    public let provider = "coingecko"
    let requester: SourceRequester

    public init(baseURL: String, http: any HTTPClient) {
        requester = SourceRequester(source: "rates", baseURL: baseURL, token: nil, http: http)
    }

    /// Only the currencies asked for are read: the answer may carry other keys under
    /// `bitcoin` (`usd_market_cap`, `usd_24h_change`, which may be negative, `last_updated_at`)
    /// that are no prices.
    public func prices(in currencies: [Currency], now: Instant) async throws -> PriceAnswer {
        let wanted = currencies.filter { $0 != .btc }
        let codes = wanted.map { $0.code.lowercased() }
        guard !codes.isEmpty else { return PriceAnswer(rates: []) }
        let path = "/simple/price?ids=bitcoin&vs_currencies=" + codes.joined(separator: ",")
        let values: [String: PriceValue] = try await requester.get(path) { reader in
            var found: [String: PriceValue]?
            try reader.readObject { reader, key in
                guard key.is("bitcoin") else { return try reader.skipValue() }
                var values: [String: PriceValue] = [:]
                try reader.readObject { reader, key in
                    guard codes.contains(key.string) else { return try reader.skipValue() }
                    values[key.string.uppercased()] = try PriceValue.read(&reader)
                }
                found = values
            }
            guard let found else { throw reader.missing("bitcoin") }
            return found
        }
        return PriceAnswer.collect(values, for: wanted, provider: provider, now: now)
    }
}

/// mempool.space: `GET /v1/prices` -> `{"time":...,"USD":...,"EUR":...}`.
public struct MempoolPriceClient: PriceClient {
    public let provider = "mempool"
    let requester: SourceRequester

    public init(baseURL: String, http: any HTTPClient) {
        requester = SourceRequester(source: "rates", baseURL: baseURL, token: nil, http: http)
    }

    /// mempool answers -1 for a currency none of its exchange feeds priced (its price updater
    /// starts every currency at -1 and keeps -1 where no feed answered): that currency is left
    /// out, the others are kept.
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
        return PriceAnswer.collect(values, for: currencies, provider: provider, now: now)
    }
}

extension PriceAnswer {
    /// The rates and the unpriced currencies of `values` (by upper-case code), in the order of
    /// `currencies`; currencies the answer did not name are in neither.
    static func collect(_ values: [String: PriceValue], for currencies: [Currency], provider: String, now: Instant) -> PriceAnswer {
        var answer = PriceAnswer(rates: [])
        for currency in currencies {
            switch values[currency.code] {
            case .price(let rate)?:
                answer.rates.append(ExchangeRate(pair: CurrencyPair(base: .btc, quote: currency), rate: rate, fetchedAt: now, provider: provider))
            case .noPrice(let answered)?:
                answer.unpriced.append(Unpriced(currency: currency, answered: answered))
            case nil:
                break
            }
        }
        return answer
    }
}
