import Foundation

/// Exchange rates over time, answering "the rate at D" as SPEC.md section 13 defines it: the
/// latest stored rate at or before D. Conversions use the same lookup as ``RateTable``
/// (``RateRoute``: the same currency, the stored pair, its inverse, or a cross through one or
/// two intermediates), each leg taken at D: a pair without a rate at D is no leg at D.
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
    let route: RateRoute

    /// Builds the history from stored rates in any order. Zero or negative rates are left out
    /// (they would divide by zero); of two rates at the same instant the later one given wins.
    /// - parameter preferred: intermediates to try after BTC for a cross rate (the display currency).
    public init(_ rates: [ExchangeRate], preferred: [Currency] = []) {
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
        route = RateRoute(pairs: self.points.keys, preferred: preferred)
    }

    /// The rate from `source` to `target` at `instant`, or nil when none is known at or before it.
    public func quote(from source: Currency, to target: Currency, at instant: Instant) -> RateQuote? {
        route.quote(from: source, to: target) { direct(from: $0, to: $1, at: instant) }
    }

    /// The rate from `source` to `target` on the UTC day of `instant` (SPEC.md section 17's
    /// "value at its date"): the latest of that day at or before `instant`, else the day's
    /// latest; nil when the day has none (a rate of another day is not that day's).
    public func quote(from source: Currency, to target: Currency, onDayOf instant: Instant) -> RateQuote? {
        if source == target { return quote(from: source, to: target, at: instant) }
        let day = instant.day
        for moment in [instant, day.lastInstant] {
            if let quote = quote(from: source, to: target, at: moment), quote.asOf?.day == day { return quote }
        }
        return nil
    }

    /// The instants at which the rate from `source` to `target` changes: every stored rate of
    /// the pairs a conversion between them uses at some instant (either direction of each leg:
    /// whichever was stored last is the leg). Pairs the lookup could read but never uses (a
    /// cross route while the direct pair has a rate) add no instants.
    public func changeInstants(from source: Currency, to target: Currency) -> [Instant] {
        let candidates = Set(route.candidatePairs(from: source, to: target).flatMap { points[$0]?.map(\.instant) ?? [] })
        var used: Set<CurrencyPair> = []
        for instant in candidates {
            for (from, to) in route.route(from: source, to: target, leg: { direct(from: $0, to: $1, at: instant) })?.legs ?? [] {
                used.insert(CurrencyPair(base: from, quote: to))
                used.insert(CurrencyPair(base: to, quote: from))
            }
        }
        return Set(used.flatMap { points[$0]?.map(\.instant) ?? [] }).sorted()
    }

    /// Of the `stored` pairs, those a conversion between any two of `currencies` may read: what
    /// a history for converting among them must hold (the store loads only these).
    public static func pairsNeeded(among currencies: Set<Currency>, stored: Set<CurrencyPair>) -> Set<CurrencyPair> {
        let route = RateRoute(pairs: stored, preferred: [])
        let list = currencies.sorted()
        var needed: Set<CurrencyPair> = []
        for (index, source) in list.enumerated() {
            for target in list[(index + 1)...] { needed.formUnion(route.candidatePairs(from: source, to: target)) }
        }
        return needed.intersection(stored)
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
