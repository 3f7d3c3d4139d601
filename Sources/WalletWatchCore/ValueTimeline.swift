import Foundation

/// Assets' values over time (SPEC.md section 13): at D, quantity at D (the confirmed
/// transactions up to D) times the price at D (the latest rate at or before D).
public enum ValueTimeline {
    /// The assets' quantities and values at one instant, in the order the assets were given.
    public struct Point: Hashable, Sendable {
        public let instant: Instant
        /// Quantity of each asset, in its minor units.
        public let quantities: [Int128]
        /// Value of each asset in the display currency's minor units; nil when it held something
        /// and no rate was known.
        public let values: [Int128?]

        /// The sum of the values (each rounded once); nil when one of them is unknown.
        public var total: Int128? {
            values.reduce(Int128(0) as Int128?) { sum, value in sum.flatMap { sum in value.map { sum + $0 } } }
        }
    }

    /// A point at every instant with a transaction or a rate of the assets' currencies, from the
    /// first transaction to `now`, and one at `now`.
    public static func events(of assets: [PortfolioAsset], pricer: Pricer, now: Instant) -> [Point] {
        guard let first = assets.compactMap({ $0.movements.first?.date }).min() else { return [] }
        var instants = Set(assets.flatMap { $0.movements.map(\.date) })
        for currency in Set(assets.map(\.currency)) {
            instants.formUnion(pricer.history.changeInstants(from: currency, to: pricer.display).filter { $0 >= first && $0 <= now })
        }
        instants.insert(now)
        return points(of: assets, at: instants.filter { $0 <= now }.sorted(), pricer: pricer)
    }

    /// A point at the end of every UTC day from the first transaction's day through today
    /// (today's point is at `now`): the grid charts are drawn on.
    public static func daily(of assets: [PortfolioAsset], pricer: Pricer, now: Instant) -> [Point] {
        points(of: assets, at: dailyInstants(from: assets.compactMap { $0.movements.first?.date }.min(), now: now), pricer: pricer)
    }

    /// The end of every UTC day from `first`'s day through `now`'s day, the last one being `now`.
    public static func dailyInstants(from first: Instant?, now: Instant) -> [Instant] {
        guard let first, first <= now else { return [] }
        var instants: [Instant] = []
        var day = first.day
        while day <= now.day {
            instants.append(min(day.next.startInstant.adding(milliseconds: -1), now))
            day = day.next
        }
        return instants
    }

    /// The assets' quantities and values at each of `instants` (oldest first).
    public static func points(of assets: [PortfolioAsset], at instants: [Instant], pricer: Pricer) -> [Point] {
        zip(instants, quantities(of: assets, at: instants)).map { instant, quantities in
            let values = zip(assets, quantities).map { asset, quantity -> Int128? in
                guard quantity != 0 else { return 0 }
                return pricer.unitPrice(asset.currency, at: instant).flatMap { Rounding.halfEven(Decimal(minorUnits: quantity) * $0) }
            }
            return Point(instant: instant, quantities: quantities, values: values)
        }
    }

    /// Each asset's quantity at each of `instants` (oldest first), in one pass over the movements.
    public static func quantities(of assets: [PortfolioAsset], at instants: [Instant]) -> [[Int128]] {
        var quantities = [Int128](repeating: 0, count: assets.count)
        var next = [Int](repeating: 0, count: assets.count)
        return instants.map { instant in
            for (index, asset) in assets.enumerated() {
                while next[index] < asset.movements.count, asset.movements[next[index]].date <= instant {
                    quantities[index] += asset.movements[next[index]].amount
                    next[index] += 1
                }
            }
            return quantities
        }
    }
}
