import WalletWatchCore

/// Converts into one currency while remembering which rates were used, how old the oldest
/// was, and which were missing.
struct ConversionTrail {
    let table: RateTable
    var asOf: Instant?
    var stale = false
    var missing: Set<CurrencyPair> = []

    init(table: RateTable) { self.table = table }

    mutating func convert(_ minor: Int128, from source: Currency, to target: Currency) -> Int128? {
        guard source != target else { return minor }
        guard let quote = table.quote(from: source, to: target),
              let money = RateTable.convert(Money(minorUnits: minor, currency: source), to: target, quote: quote)
        else {
            missing.insert(CurrencyPair(base: source, quote: target))
            return nil
        }
        if let time = quote.asOf { asOf = min(asOf ?? time, time) }
        stale = stale || quote.stale
        return money.minorUnits
    }

    /// Amounts in several currencies summed per currency, each sum converted once, then added.
    mutating func total(_ amounts: [(Int128, Currency)], in target: Currency) -> Int128? {
        var total: Int128 = 0
        var complete = true
        for (currency, group) in Dictionary(grouping: amounts, by: \.1) {
            if let converted = convert(group.reduce(0) { $0 + $1.0 }, from: currency, to: target) { total += converted } else { complete = false }
        }
        return complete ? total : nil
    }
}
