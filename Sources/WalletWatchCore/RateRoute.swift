/// How a rate between two currencies is derived from stored pairs (SPEC.md sections 7 and 25),
/// shared by the latest rates (``RateTable``) and the rates over time (``RateHistory``).
///
/// The same currency is 1. Otherwise the stored pair or its inverse; else a cross through one
/// intermediate currency that both have a pair with; else a cross through two, where one of
/// the two sides reaches the intermediate only through another one (EUR to ETH from ETH/USD,
/// BTC/USD and BTC/EUR: EUR, BTC, USD, ETH). Fewer legs first; among routes of the same length,
/// intermediates are tried in a fixed order: BTC first (every provider prices it, so it links
/// the most pairs), then the preferred ones (the display currency), then the others by code.
/// Two intermediates suffice for every pair a provider gives (coins against money, money
/// against money through BTC); longer chains would multiply rates that share nothing.
///
/// Every leg is a fraction: the legs' numerators and denominators are multiplied, and the one
/// division happens when an amount is converted (``RateTable/convert(_:to:quote:)``).
struct RateRoute {
    /// Each currency's partners in some stored pair, in the order intermediates are tried.
    let neighbours: [Currency: [Currency]]

    /// The route finder over `pairs`, trying BTC, then `preferred`, then the rest by code.
    init(pairs: some Sequence<CurrencyPair>, preferred: [Currency]) {
        var partners: [Currency: Set<Currency>] = [:]
        for pair in pairs where pair.base != pair.quote {
            partners[pair.base, default: []].insert(pair.quote)
            partners[pair.quote, default: []].insert(pair.base)
        }
        let ranks = Dictionary(zip([Currency.btc] + preferred, 0...), uniquingKeysWith: { first, _ in first })
        func rank(_ currency: Currency) -> Int { ranks[currency] ?? Int.max }
        neighbours = partners.mapValues { set in
            set.sorted { (rank($0), $0.code) < (rank($1), $1.code) }
        }
    }

    /// The rate from `source` to `target` through at most two intermediates, `leg` giving each
    /// stored pair's rate (in either direction) or nil where it has none; nil when no route has
    /// every leg.
    func quote(from source: Currency, to target: Currency, leg: (Currency, Currency) -> RateQuote?) -> RateQuote? {
        route(from: source, to: target, leg: leg)?.quote
    }

    /// The rate and the legs it was made of (each as from, to), or nil.
    func route(from source: Currency, to target: Currency, leg: (Currency, Currency) -> RateQuote?)
        -> (quote: RateQuote, legs: [(Currency, Currency)])? {
        if source == target { return (RateQuote(numerator: 1, denominator: 1, asOf: nil, stale: false), []) }
        if let direct = leg(source, target) { return (direct, [(source, target)]) }
        let fromSource = (neighbours[source] ?? []).filter { $0 != target }
        let intoTarget = neighbours[target] ?? []
        for middle in fromSource where intoTarget.contains(middle) {
            if let first = leg(source, middle), let second = leg(middle, target) {
                return (first.then(second), [(source, middle), (middle, target)])
            }
        }
        for first in fromSource {
            for second in intoTarget where second != source && second != first && neighbours[first]?.contains(second) == true {
                if let a = leg(source, first), let b = leg(first, second), let c = leg(second, target) {
                    return (a.then(b).then(c), [(source, first), (first, second), (second, target)])
                }
            }
        }
        return nil
    }

    /// Every pair `quote` may read for `source` to `target`: the direct pair and the legs of
    /// every route it considers (in both directions).
    func candidatePairs(from source: Currency, to target: Currency) -> Set<CurrencyPair> {
        guard source != target else { return [] }
        var pairs: Set<CurrencyPair> = []
        func add(_ a: Currency, _ b: Currency) {
            pairs.insert(CurrencyPair(base: a, quote: b))
            pairs.insert(CurrencyPair(base: b, quote: a))
        }
        add(source, target)
        let intoTarget = neighbours[target] ?? []
        for first in neighbours[source] ?? [] where first != target {
            if intoTarget.contains(first) {
                add(source, first)
                add(first, target)
            }
            for second in intoTarget where second != source && second != first && neighbours[first]?.contains(second) == true {
                add(source, first)
                add(first, second)
                add(second, target)
            }
        }
        return pairs
    }
}

extension RateQuote {
    /// This rate followed by `next` (from this one's target to `next`'s): the fractions
    /// multiplied, the oldest time of the two, stale when either is.
    func then(_ next: RateQuote) -> RateQuote {
        RateQuote(numerator: numerator * next.numerator, denominator: denominator * next.denominator,
                  asOf: [asOf, next.asOf].compactMap { $0 }.min(), stale: stale || next.stale)
    }
}
