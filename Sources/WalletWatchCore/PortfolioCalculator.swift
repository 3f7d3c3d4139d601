import Foundation

/// One asset's confirmed history, as the portfolio figures see it.
public struct PortfolioAsset: Hashable, Sendable {
    /// One confirmed transaction: a signed amount in the asset's minor units at a date.
    public struct Movement: Hashable, Sendable {
        public let amount: Int128
        public let date: Instant
        public init(amount: Int128, date: Instant) {
            self.amount = amount
            self.date = date
        }
    }

    public let id: Int64
    public let name: String
    public let currency: Currency
    /// Confirmed transactions, oldest first (deposits before withdrawals at the same instant).
    public let movements: [Movement]

    public init(id: Int64, name: String, currency: Currency, movements: [Movement]) {
        self.id = id
        self.name = name
        self.currency = currency
        self.movements = movements.sorted { ($0.date, -$0.amount) < ($1.date, -$1.amount) }
    }

    /// Quantity now: the sum of the confirmed transactions.
    public var quantity: Int128 { movements.reduce(0) { $0 + $1.amount } }
}

/// A date at which a price was needed and none was known (no rate at or before it).
public struct MissingPrice: Error, Hashable, Sendable {
    public let pair: CurrencyPair
    public let instant: Instant
    public init(pair: CurrencyPair, instant: Instant) {
        self.pair = pair
        self.instant = instant
    }
}

/// Prices of assets in the display currency at any instant, from the rate history.
public struct Pricer: Sendable {
    public let history: RateHistory
    public let display: Currency

    public init(history: RateHistory, display: Currency) {
        self.history = history
        self.display = display
    }

    /// Display-currency minor units for one minor unit of `currency` at `instant`: the latest
    /// rate at or before it; nil when none is known.
    public func unitPrice(_ currency: Currency, at instant: Instant) -> Decimal? {
        if currency == display { return 1 }
        return history.quote(from: currency, to: display, at: instant).map { unitPrice(currency, from: $0) }
    }

    /// Display-currency minor units for one minor unit of `currency` on the UTC day of
    /// `instant` (SPEC.md section 17's `value_at_date`, ``RateHistory/quote(from:to:onDayOf:)``):
    /// nil when the day has no rate (an older one is not carried forward: a price from another
    /// day is not that day's value).
    public func unitPrice(_ currency: Currency, onDayOf instant: Instant) -> Decimal? {
        if currency == display { return 1 }
        return history.quote(from: currency, to: display, onDayOf: instant).map { unitPrice(currency, from: $0) }
    }

    /// `quote` (display per `currency`, in major units) as minor units per minor unit.
    private func unitPrice(_ currency: Currency, from quote: RateQuote) -> Decimal {
        let scale = Decimal(sign: .plus, exponent: display.exponent - currency.exponent, significand: 1)
        return quote.numerator * scale / quote.denominator
    }

    /// The missing price of `currency` at `instant`, for messages.
    func missing(_ currency: Currency, at instant: Instant) -> MissingPrice {
        MissingPrice(pair: CurrencyPair(base: currency, quote: display), instant: instant)
    }
}

/// An asset's figures in the display currency (SPEC.md section 13). Money is in the display
/// currency's minor units; nil means "unknown because a rate is missing", never zero.
public struct AssetFigures: Hashable, Sendable {
    /// Quantity now, in the asset's minor units.
    public let quantity: Int128
    /// Quantity x price now.
    public let value: Int128?
    /// Display minor units per one major unit of the asset: the cost basis over the quantity
    /// held now (the moving average). Nil when nothing is held or a cost is unknown.
    public let averageCost: Int128?
    /// What the quantity held now cost: the moving average's running cost basis.
    public let costBasis: Int128?
    /// Value - cost basis.
    public let unrealizedGain: Int128?
    /// Sum over withdrawals of amount x (price at its date - the average cost at that moment).
    public let realizedGain: Int128?
    /// The time-weighted return as a fraction (0.125 = 12.5%); nil when nothing was held.
    public let timeWeightedReturn: Decimal?
    /// The first date that needed a rate and had none.
    public let missingPrice: MissingPrice?
}

/// Average cost, cost basis, gains and the time-weighted return of assets (SPEC.md section 13).
///
/// The average cost is a moving average, walked in date order ("Average Cost at time of sale",
/// seed 003): a deposit adds its amount x the price at its date to the cost basis; a
/// withdrawal removes its amount x the average cost at that moment, so the average does not
/// move on a withdrawal, and realizes amount x (its price - that average). A realized gain is
/// therefore fixed when it happens: a later deposit changes the average from then on only.
/// And realized + unrealized gain is always what the asset brought in (value now plus the
/// withdrawals at their prices, minus the deposits at theirs), because every cost a withdrawal
/// takes out of the basis is the cost its realized gain was measured against.
///
/// Choices where the specification is silent:
/// - Everything withdrawn leaves a cost basis of exactly 0 and no average cost (nothing is held
///   to have one); the next deposit starts afresh at its own price.
/// - A deposit without a price makes the basis unknown until everything is withdrawn again (then
///   it is 0, whatever the unknown cost was); a withdrawal without a price makes the realized
///   gain unknown, while the basis still falls by the average cost.
/// - A withdrawal of more than is held (a history that starts after the first deposit) has no
///   cost to measure against: realized gain, average cost and cost basis are unknown from then on.
/// - Only transactions dated at or before `now` count (the clock may be set in the past), in
///   every figure alike.
/// - Values are kept exact (Decimal) until each figure is rounded, once, half to even.
public enum PortfolioCalculator {
    /// The figures of one asset at `now`.
    public static func figures(of asset: PortfolioAsset, pricer: Pricer, now: Instant) -> AssetFigures {
        let movements = asset.movements.filter { $0.date <= now && $0.amount != 0 }
        var missing: MissingPrice?
        func note(_ instant: Instant) {
            if missing == nil { missing = pricer.missing(asset.currency, at: instant) }
        }
        var basis = CostBasis()
        for movement in movements {
            let price = pricer.unitPrice(asset.currency, at: movement.date)
            if price == nil { note(movement.date) }
            if movement.amount > 0 {
                basis.deposit(movement.amount, at: price)
            } else {
                basis.withdraw(-movement.amount, at: price)
            }
        }
        let quantity = basis.quantity
        let averageCost = basis.averagePerMinorUnit.flatMap { Rounding.halfEven($0 * Decimal(minorUnits: asset.currency.minorUnitsPerMajor)) }
        let costBasis = basis.cost.flatMap(Rounding.halfEven)
        var value: Int128? = 0
        if quantity != 0 {
            if let price = pricer.unitPrice(asset.currency, at: now) {
                value = Rounding.halfEven(Decimal(minorUnits: quantity) * price)
            } else {
                value = nil
                note(now)
            }
        }
        let twr = timeWeightedReturn(of: [asset], pricer: pricer, now: now)
        if case .failure(let gap) = twr, missing == nil { missing = gap }
        return AssetFigures(
            quantity: quantity, value: value, averageCost: averageCost, costBasis: costBasis,
            unrealizedGain: value.flatMap { value in costBasis.map { value - $0 } },
            realizedGain: basis.realized.flatMap(Rounding.halfEven),
            timeWeightedReturn: try? twr.get(), missingPrice: missing)
    }

    /// The time-weighted return of `assets` taken together, up to `now`.
    ///
    /// Sub-periods are delimited by cash flows (every instant with a transaction): a period
    /// ends with the value just before the flow, at the flow's prices, and the flow joins the
    /// next period's start value. So r = (end before flow - start) / start, which is the
    /// specification's (end - start - cash flow) / start with the end taken after the flow.
    /// Price moves between flows need no periods of their own: chained, they telescope. A
    /// period starting from nothing (before the first deposit, after everything was
    /// withdrawn) earns nothing and is skipped. Nil when no period had a value to grow from.
    public static func timeWeightedReturn(of assets: [PortfolioAsset], pricer: Pricer, now: Instant) -> Result<Decimal?, MissingPrice> {
        let flows = Dictionary(grouping: assets.flatMap { asset in asset.movements.map { (asset.id, $0) } }, by: \.1.date)
        var quantities = Dictionary(uniqueKeysWithValues: assets.map { ($0.id, Int128(0)) })
        let currencies = Dictionary(uniqueKeysWithValues: assets.map { ($0.id, $0.currency) })
        func value(at instant: Instant) -> Result<Decimal, MissingPrice> {
            var total: Decimal = 0
            for (id, quantity) in quantities where quantity != 0 {
                guard let price = pricer.unitPrice(currencies[id]!, at: instant) else {
                    return .failure(pricer.missing(currencies[id]!, at: instant))
                }
                total += Decimal(minorUnits: quantity) * price
            }
            return .success(total)
        }
        var growth: Decimal = 1
        var periods = 0
        var start: Decimal?
        for instant in flows.keys.sorted() where instant <= now {
            let before: Decimal
            switch value(at: instant) { case .success(let v): before = v; case .failure(let gap): return .failure(gap) }
            if let start, start > 0 {
                growth *= before / start
                periods += 1
            }
            for (id, movement) in flows[instant]! { quantities[id]! += movement.amount }
            switch value(at: instant) { case .success(let v): start = v; case .failure(let gap): return .failure(gap) }
        }
        if let start, start > 0 {
            switch value(at: now) {
            case .success(let end):
                growth *= end / start
                periods += 1
            case .failure(let gap): return .failure(gap)
            }
        }
        return .success(periods > 0 ? growth - 1 : nil)
    }
}

/// The moving average's running state: the quantity held, what it cost, and the gains the
/// withdrawals realized, in display-currency minor units (exact until a figure is rounded).
struct CostBasis {
    /// Asset minor units held.
    private(set) var quantity: Int128 = 0
    /// What `quantity` cost; nil while a cost is unknown.
    private(set) var cost: Decimal? = 0
    /// The sum of the realized gains; nil once one is unknown.
    private(set) var realized: Decimal? = 0
    /// A withdrawal took more than was held: the history is incomplete, and no cost can be known.
    private var overdrawn = false

    /// Display minor units per asset minor unit: cost over quantity; nil when nothing is held or
    /// the cost is unknown.
    var averagePerMinorUnit: Decimal? {
        guard quantity > 0, let cost else { return nil }
        return cost / Decimal(minorUnits: quantity)
    }

    /// `amount` (above 0) comes in at `price` (nil: unknown).
    mutating func deposit(_ amount: Int128, at price: Decimal?) {
        quantity += amount
        guard !overdrawn else { return }
        cost = cost.flatMap { cost in price.map { cost + Decimal(minorUnits: amount) * $0 } }
    }

    /// `amount` (above 0) goes out at `price` (nil: unknown): it takes its share of the cost out
    /// at the average of this moment, and realizes the difference to its price.
    mutating func withdraw(_ amount: Int128, at price: Decimal?) {
        guard !overdrawn, amount <= quantity else {
            overdrawn = true
            quantity -= amount
            cost = nil
            realized = nil
            return
        }
        let average = averagePerMinorUnit
        quantity -= amount
        if let price, let average {
            realized = realized.map { $0 + Decimal(minorUnits: amount) * (price - average) }
        } else {
            realized = nil
        }
        // Everything withdrawn: nothing is held, so nothing is owed to any cost, known or not.
        cost = quantity == 0 ? 0 : average.flatMap { average in cost.map { $0 - Decimal(minorUnits: amount) * average } }
    }
}
