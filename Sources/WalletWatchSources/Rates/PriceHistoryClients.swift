import Foundation
import WalletWatchCore

extension CoinGeckoClient {
    /// How far back CoinGecko's public API answers: ranges that start within the past 365 days.
    public static let publicHistoryDays = 365

    /// `coin`'s price in `currency` from `from` through `to`, one request per coin and currency:
    /// `GET /coins/{id}/market_chart/range?vs_currency=usd&from=UNIX&to=UNIX` ->
    /// `{"prices": [[ms, price], ...], ...}`, oldest first (hourly for ranges up to 90 days,
    /// daily at 00:00 UTC beyond). An answer without `prices`, or with a point that is not a
    /// `[timestamp, price]` pair, is refused naming the field; a point whose price is unusable
    /// or whose timestamp breaks the order is skipped and reported.
    public func history(of coin: PricedCoin, in currency: Currency, from: Instant, to: Instant, now: Instant) async throws -> PriceHistoryAnswer {
        let pair = CurrencyPair(base: coin.currency, quote: currency)
        let path = "/coins/\(coin.id)/market_chart/range?vs_currency=\(currency.code.lowercased())"
            + "&from=\(from.millisecondsSinceEpoch / 1000)&to=\(to.millisecondsSinceEpoch / 1000)"
        return try await requester.get(path) { reader in
            var collector = PriceHistoryCollector(ascending: true, now: now)
            var sawPrices = false
            try reader.readObject { reader, key in
                guard key.is("prices") else { return try reader.skipValue() }
                sawPrices = true
                try reader.readArray { reader, index in
                    var milliseconds: Int64?
                    var value: PriceHistoryCollector.Value?
                    try reader.readArray { reader, position in
                        switch position {
                        case 0: milliseconds = try reader.readNonNegativeInt64()
                        case 1: value = try PriceHistoryCollector.read(&reader)
                        default: throw reader.error("expected a [timestamp, price] pair, found more than two values")
                        }
                    }
                    guard let milliseconds, let value else { throw reader.error("expected a [timestamp, price] pair, found fewer than two values") }
                    collector.add(field: "prices[\(index)]", pair: pair,
                                  instant: Instant(millisecondsSinceEpoch: milliseconds), value: value)
                }
            }
            guard sawPrices else { throw reader.missing("prices") }
            return collector.answer
        }
    }
}

extension MempoolPriceClient {
    /// mempool's whole BTC price history for `currency`, with USD beside it:
    /// `GET /v1/historical-price?currency=EUR` -> `{"prices": [{"time": UNIX, "EUR": ...,
    /// "USD": ...}, ...], "exchangeRates": {...}}`, newest first. Of each point, the currencies
    /// in `wanted` are read (`currency` and USD at most). An answer without `prices`, or with a
    /// point that is not an object with a `time`, is refused naming the field; a price that is
    /// unusable (mempool writes -1 where it has none), missing, or at a timestamp that breaks
    /// the order is skipped and reported.
    public func history(currency: Currency, wanted: [Currency], now: Instant) async throws -> PriceHistoryAnswer {
        let codes = Dictionary(uniqueKeysWithValues: wanted.map { ($0.code, $0) })
        return try await requester.get("/v1/historical-price?currency=\(currency.code)") { reader in
            var collector = PriceHistoryCollector(ascending: false, now: now)
            var sawPrices = false
            try reader.readObject { reader, key in
                guard key.is("prices") else { return try reader.skipValue() }
                sawPrices = true
                try reader.readArray { reader, index in
                    var time: Int64?
                    var values: [Currency: PriceHistoryCollector.Value] = [:]
                    try reader.readObject { reader, key in
                        if key.is("time") {
                            time = try reader.readNonNegativeInt64()
                        } else if let currency = codes[key.string] {
                            values[currency] = try PriceHistoryCollector.read(&reader)
                        } else {
                            try reader.skipValue()
                        }
                    }
                    guard let time else { throw reader.missing("time") }
                    for currency in wanted {
                        collector.add(field: "prices[\(index)]", pair: CurrencyPair(base: .btc, quote: currency),
                                      instant: Instant(millisecondsSinceEpoch: time * 1000),
                                      value: values[currency] ?? .unusable("no \(currency.code) price"))
                    }
                }
            }
            guard sawPrices else { throw reader.missing("prices") }
            return collector.answer
        }
    }
}
