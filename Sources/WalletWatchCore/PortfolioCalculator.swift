import Foundation

/// One asset's confirmed history, as the portfolio figures see it.
public struct PortfolioAsset: Hashable, Sendable {
    /// One confirmed transaction: a signed amount in the asset's minor units at a date.
    public struct Movement: Hashable, Sendable {
        public let amount: Int64
        public let date: Instant
        public init(amount: Int64, date: Instant) {
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
    public var quantity: Int64 { movements.reduce(0) { $0 + $1.amount } }
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
    /// `instant` (SPEC.md section 17's `value_at_date`): the latest rate of that day at or
    /// before `instant`, else the first one later that day; nil when the day has no rate (an
    /// older one is not carried forward: a price from another day is not that day's value).
    public func unitPrice(_ currency: Currency, onDayOf instant: Instant) -> Decimal? {
        if currency == display { return 1 }
        let day = instant.day
        for moment in [instant, day.lastInstant] {
            if let quote = history.quote(from: currency, to: display, at: moment), quote.asOf?.day == day {
                return unitPrice(currency, from: quote)
            }
        }
        return nil
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
    public let quantity: Int64
    /// Quantity x price now.
    public let value: Int64?
    /// Display minor units per one major unit of the asset: the deposits' value at their dates
    /// over the amount deposited. Nil without deposits or when a deposit has no rate.
    public let averageCost: Int64?
    /// Quantity x average cost.
    public let costBasis: Int64?
    /// Value - cost basis.
    public let unrealizedGain: Int64?
    /// Sum over withdrawals of amount x (price at its date - average cost).
    public let realizedGain: Int64?
    /// The time-weighted return as a fraction (0.125 = 12.5%); nil when nothing was held.
    public let timeWeightedReturn: Decimal?
    /// The first date that needed a rate and had none.
    public let missingPrice: MissingPrice?
}

/// Average cost, cost basis, gains and the time-weighted return of assets (SPEC.md section 13).
///
/// Choices where the specification is silent:
/// - Average cost is the specification's: every deposit's value at its date over every amount
///   deposited. Withdrawals do not change it (they lower the quantity, so the cost basis falls
///   in proportion), and a deposit after a full withdrawal is averaged with the older ones.
/// - A realized gain uses that same average cost, as the specification's formula reads. With one
///   average cost, realized + unrealized gain always equals what the asset brought in (value now
///   plus the withdrawals at their prices, minus the deposits at theirs); a running average at
///   each withdrawal would not. The price of that: a gain realized earlier moves when a later
///   deposit changes the average.
/// - Only transactions dated at or before `now` count (the clock may be set in the past), in
///   every figure alike.
/// - Values are kept exact until each figure is rounded, once, half to even.
public enum PortfolioCalculator {
    /// The figures of one asset at `now`.
    public static func figures(of asset: PortfolioAsset, pricer: Pricer, now: Instant) -> AssetFigures {
        let movements = asset.movements.filter { $0.date <= now && $0.amount != 0 }
        var depositedAmount: Int64 = 0
        var depositedValue: Decimal = 0
        var costKnown = true
        var withdrawnAmount: Int64 = 0
        var withdrawnValue: Decimal = 0
        var realizedKnown = true
        var missing: MissingPrice?
        func note(_ instant: Instant) {
            if missing == nil { missing = pricer.missing(asset.currency, at: instant) }
        }
        for movement in movements {
            guard let price = pricer.unitPrice(asset.currency, at: movement.date) else {
                note(movement.date)
                if movement.amount > 0 { costKnown = false } else { realizedKnown = false }
                continue
            }
            if movement.amount > 0 {
                depositedAmount += movement.amount
                depositedValue += Decimal(movement.amount) * price
            } else {
                withdrawnAmount -= movement.amount
                withdrawnValue -= Decimal(movement.amount) * price
            }
        }
        let quantity = movements.reduce(Int64(0)) { $0 + $1.amount }
        let costKnownAtAll = costKnown && depositedAmount > 0
        // Withdrawals without any deposit (an incomplete history) have no cost to compare with.
        let realized: Decimal? = !realizedKnown ? nil
            : withdrawnAmount == 0 ? 0
            : costKnownAtAll ? withdrawnValue - Decimal(withdrawnAmount) * depositedValue / Decimal(depositedAmount) : nil
        let averageCost: Int64? = costKnownAtAll
            ? Rounding.halfEven(depositedValue * Decimal(asset.currency.minorUnitsPerMajor) / Decimal(depositedAmount)) : nil
        let costBasis: Int64? = quantity == 0 ? 0
            : (costKnownAtAll ? Rounding.halfEven(Decimal(quantity) * depositedValue / Decimal(depositedAmount)) : nil)
        var value: Int64? = 0
        if quantity != 0 {
            if let price = pricer.unitPrice(asset.currency, at: now) {
                value = Rounding.halfEven(Decimal(quantity) * price)
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
            realizedGain: realized.flatMap(Rounding.halfEven),
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
        var quantities = Dictionary(uniqueKeysWithValues: assets.map { ($0.id, Int64(0)) })
        let currencies = Dictionary(uniqueKeysWithValues: assets.map { ($0.id, $0.currency) })
        func value(at instant: Instant) -> Result<Decimal, MissingPrice> {
            var total: Decimal = 0
            for (id, quantity) in quantities where quantity != 0 {
                guard let price = pricer.unitPrice(currencies[id]!, at: instant) else {
                    return .failure(pricer.missing(currencies[id]!, at: instant))
                }
                total += Decimal(quantity) * price
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
