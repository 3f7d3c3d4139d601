import Foundation
import WalletWatchCore
import WalletWatchNet

/// Fetches BTC prices in fiat currencies from a price API.
public protocol PriceClient: Sendable {
    /// The provider's name, stored with each rate.
    var provider: String { get }
    /// BTC/`currency` for each currency the provider has (missing ones are left out).
    func prices(in currencies: [Currency], now: Instant) async throws -> [ExchangeRate]
}

/// CoinGecko: `GET /simple/price?ids=bitcoin&vs_currencies=usd,eur` -> `{"bitcoin":{"usd":...}}`.
public struct CoinGeckoClient: PriceClient {
    public let provider = "coingecko"
    let requester: SourceRequester

    public init(baseURL: String, http: any HTTPClient) {
        requester = SourceRequester(source: "rates", baseURL: baseURL, token: nil, http: http)
    }

    public func prices(in currencies: [Currency], now: Instant) async throws -> [ExchangeRate] {
        let codes = currencies.filter { $0 != .btc }.map { $0.code.lowercased() }
        guard !codes.isEmpty else { return [] }
        let path = "/simple/price?ids=bitcoin&vs_currencies=" + codes.joined(separator: ",")
        let prices: [String: Decimal] = try await requester.get(path) { reader in
            var found: [String: Decimal]?
            try reader.readObject { reader, key in
                guard key.is("bitcoin") else { return try reader.skipValue() }
                var values: [String: Decimal] = [:]
                try reader.readObject { reader, key in
                    let price = try reader.readDecimal()
                    guard price > 0 else { throw reader.error("a price must be positive") }
                    values[key.string.uppercased()] = price
                }
                found = values
            }
            guard let found else { throw reader.missing("bitcoin") }
            return found
        }
        return currencies.compactMap { currency in
            prices[currency.code].map { ExchangeRate(pair: CurrencyPair(base: .btc, quote: currency), rate: $0, fetchedAt: now, provider: provider) }
        }
    }
}

/// mempool.space: `GET /v1/prices` -> `{"time":...,"USD":...,"EUR":...}`.
public struct MempoolPriceClient: PriceClient {
    public let provider = "mempool"
    let requester: SourceRequester

    public init(baseURL: String, http: any HTTPClient) {
        requester = SourceRequester(source: "rates", baseURL: baseURL, token: nil, http: http)
    }

    public func prices(in currencies: [Currency], now: Instant) async throws -> [ExchangeRate] {
        let wanted = Set(currencies.map(\.code))
        let prices: [String: Decimal] = try await requester.get("/v1/prices") { reader in
            var values: [String: Decimal] = [:]
            var sawTime = false
            try reader.readObject { reader, key in
                if key.is("time") {
                    _ = try reader.readNonNegativeInt64()
                    sawTime = true
                } else if wanted.contains(key.string) {
                    let price = try reader.readDecimal()
                    guard price > 0 else { throw reader.error("a price must be positive") }
                    values[key.string] = price
                } else {
                    try reader.skipValue()
                }
            }
            guard sawTime else { throw reader.missing("time") }
            return values
        }
        return currencies.compactMap { currency in
            prices[currency.code].map { ExchangeRate(pair: CurrencyPair(base: .btc, quote: currency), rate: $0, fetchedAt: now, provider: provider) }
        }
    }
}
