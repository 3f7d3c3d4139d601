import Foundation

/// Exchange rates over time, answering "the rate at D" as SPEC.md section 13 defines it: the
/// latest stored rate at or before D. Conversions use the same lookup as ``RateTable`` (the
/// same currency, the stored pair, its inverse, or a cross through BTC), each leg taken at D.
public struct RateHistory: Sendable {
    /// One stored rate of a pair.
    public struct Point: Hashable, Sendable {
        public let instant: Instant
        public let rate: Decimal
        public init(instant: Instant, rate: Decimal) {
            self.instant = instant
            self.rate = rate
        }
    }

    /// Each pair's rates, oldest first.
    public let points: [CurrencyPair: [Point]]

    /// Builds the history from stored rates in any order. Zero or negative rates are left out
    /// (they would divide by zero); of two rates at the same instant the later one given wins.
    public init(_ rates: [ExchangeRate]) {
        var points: [CurrencyPair: [Point]] = [:]
        for rate in rates where rate.rate > 0 {
            points[rate.pair, default: []].append(Point(instant: rate.fetchedAt, rate: rate.rate))
        }
        self.points = points.mapValues { list in
            // A stable sort keeps the given order among equal instants; keep the last of each.
            let sorted = list.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }.map(\.element)
            var result: [Point] = []
            for point in sorted {
                if result.last?.instant == point.instant { result[result.count - 1] = point } else { result.append(point) }
            }
            return result
        }
    }

    /// The rate from `source` to `target` at `instant`, or nil when none is known at or before it.
    public func quote(from source: Currency, to target: Currency, at instant: Instant) -> RateQuote? {
        if source == target { return RateQuote(numerator: 1, denominator: 1, asOf: nil, stale: false) }
        if let direct = direct(from: source, to: target, at: instant) { return direct }
        guard source != .btc, target != .btc,
              let toBitcoin = direct(from: source, to: .btc, at: instant),
              let fromBitcoin = direct(from: .btc, to: target, at: instant)
        else { return nil }
        let asOf = [toBitcoin.asOf, fromBitcoin.asOf].compactMap { $0 }.min()
        return RateQuote(numerator: toBitcoin.numerator * fromBitcoin.numerator,
                         denominator: toBitcoin.denominator * fromBitcoin.denominator, asOf: asOf, stale: false)
    }

    /// The instants at which the rate from `source` to `target` may change: every stored rate of
    /// the pairs a conversion between them can use.
    public func changeInstants(from source: Currency, to target: Currency) -> [Instant] {
        guard source != target else { return [] }
        let pairs = [CurrencyPair(base: source, quote: target), CurrencyPair(base: target, quote: source),
                     CurrencyPair(base: source, quote: .btc), CurrencyPair(base: .btc, quote: source),
                     CurrencyPair(base: target, quote: .btc), CurrencyPair(base: .btc, quote: target)]
        return Set(pairs.flatMap { points[$0]?.map(\.instant) ?? [] }).sorted()
    }

    /// A stored pair or its inverse at `instant`: whichever was stored last (the pair on a tie),
    /// so that a price imported as USD/BTC and one fetched as BTC/USD follow each other.
    private func direct(from source: Currency, to target: Currency, at instant: Instant) -> RateQuote? {
        let forward = latest(CurrencyPair(base: source, quote: target), atOrBefore: instant)
        let inverse = latest(CurrencyPair(base: target, quote: source), atOrBefore: instant)
        if let forward, forward.instant >= (inverse?.instant ?? forward.instant) {
            return RateQuote(numerator: forward.rate, denominator: 1, asOf: forward.instant, stale: false)
        }
        if let inverse {
            return RateQuote(numerator: 1, denominator: inverse.rate, asOf: inverse.instant, stale: false)
        }
        return nil
    }

    /// The last point at or before `instant` (binary search).
    func latest(_ pair: CurrencyPair, atOrBefore instant: Instant) -> Point? {
        guard let list = points[pair], !list.isEmpty else { return nil }
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].instant <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : list[low - 1]
    }
}
