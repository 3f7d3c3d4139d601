/// Converts money between currencies; the rate book implements it with stored rates.
public protocol CurrencyConverter: Sendable {
    /// `money` in `currency`, rounded half to even once; nil when no rate is known (never zero).
    func convert(_ money: Money, to currency: Currency) -> Money?
}

/// A converter that knows no rates: same-currency amounts only.
public struct NoRates: CurrencyConverter {
    public init() {}
    public func convert(_ money: Money, to currency: Currency) -> Money? {
        money.currency == currency ? money : nil
    }
}

/// How far a goal is (SPEC.md section 9): funded now against its target.
public struct GoalProgress: Hashable, Sendable {
    /// The target, in the goal currency.
    public let target: Int128
    /// The sum of the funded amounts of its assets, converted to the goal currency; nil when a
    /// share could not be converted. A missing rate makes the goal's figures unknown: counting
    /// that share as zero would report a goal as further away than it is.
    public let funded: Int128?
    /// The pairs (an asset's currency to the goal's) whose shares could not be converted: no
    /// rate, stored or derived.
    public let missingRates: [CurrencyPair]

    /// Adds up the funded shares of a goal's assets in the goal's currency.
    public init(goal: Goal, shares: [Money], converter: any CurrencyConverter) {
        var funded: Int128 = 0
        var missing: Set<Currency> = []
        // Sum per currency first, so each currency is converted (and rounded) once.
        let byCurrency = Dictionary(grouping: shares, by: \.currency)
        for (currency, amounts) in byCurrency {
            let total = Money(minorUnits: amounts.reduce(0) { $0 + $1.minorUnits }, currency: currency)
            if let converted = converter.convert(total, to: goal.currency) {
                funded += converted.minorUnits
            } else {
                missing.insert(currency)
            }
        }
        self.target = goal.target
        self.funded = missing.isEmpty ? funded : nil
        self.missingRates = missing.sorted().map { CurrencyPair(base: $0, quote: goal.currency) }
    }

    /// funded / target, as numerator and denominator (0 when the target is 0; may exceed 1);
    /// nil when a rate is missing.
    public var achievementRate: (numerator: Int128, denominator: Int128)? {
        funded.map { target == 0 ? (0, 1) : ($0, target) }
    }

    /// target - funded (negative when above the target); nil when a rate is missing.
    public var distance: Int128? { funded.map { target - $0 } }

    /// The goal is reached once funded covers the target; nil when a rate is missing.
    public var reached: Bool? { funded.map { $0 >= target } }
}
