import Foundation
import GRDB
import WalletWatchCore

extension AppDatabase {
    /// The days from `first` through `last` on which `pair` (or its inverse) has a daily price:
    /// a rate in the history at 00:00 UTC of the day, from a backfill or an import. Rates
    /// fetched at other instants (the daemon's refreshes) do not make a day known.
    public func dailyRateDays(_ pair: CurrencyPair, from first: Day, through last: Day) throws -> Set<Day> {
        try read { db in
            let instants = try Instant.fetchAll(db, sql: """
                SELECT fetched_at FROM rate_history
                WHERE ((base = ? AND quote = ?) OR (base = ? AND quote = ?)) AND fetched_at >= ? AND fetched_at <= ?
                  AND substr(fetched_at, 11) = 'T00:00:00.000Z'
                """, arguments: [pair.base, pair.quote, pair.quote, pair.base, first.startInstant, last.startInstant])
            return Set(instants.map(\.day))
        }
    }

    /// Appends daily prices to the rate history in one transaction, each at 00:00 UTC of its
    /// day, leaving out a day that has one already (another process may have backfilled it
    /// meanwhile). A rate that is not positive, or not at the start of a day, is refused and
    /// nothing is stored. Returns the rates added. Like every rate, they leave the change
    /// counter alone (cached figures follow the rate history's own version).
    @discardableResult
    public func addDailyRates(_ rates: [ExchangeRate]) async throws -> [ExchangeRate] {
        try Self.requirePositive(rates.map { ($0.pair, $0.rate, $0.provider) })
        if let bad = rates.first(where: { $0.fetchedAt != $0.fetchedAt.day.startInstant }) {
            throw Refusal("the daily \(bad.pair) price at \(bad.fetchedAt.iso8601) is not at 00:00 UTC; nothing was stored")
        }
        return try await write { db in
            let known = try db.cachedStatement(sql: """
                SELECT 1 FROM rate_history WHERE ((base = ? AND quote = ?) OR (base = ? AND quote = ?)) AND fetched_at = ? LIMIT 1
                """)
            let insert = try db.cachedStatement(sql: "INSERT INTO rate_history (base, quote, rate, fetched_at, provider) VALUES (?, ?, ?, ?, ?)")
            var added: [ExchangeRate] = []
            for rate in rates {
                let pair = rate.pair
                guard try Int.fetchOne(known, arguments: [pair.base, pair.quote, pair.quote, pair.base, rate.fetchedAt]) == nil else { continue }
                try insert.execute(arguments: [pair.base, pair.quote, "\(rate.rate)", rate.fetchedAt, rate.provider])
                added.append(rate)
            }
            return added
        }
    }

    /// The UTC day of the ledger's oldest transaction (any asset, any status), or nil when
    /// there is none.
    public func firstTransactionDay() throws -> Day? {
        try read { db in try Instant.fetchOne(db, sql: "SELECT MIN(date) FROM transactions")?.day }
    }

    /// The rate history between `currencies` that a lookup at any instant from `from` through
    /// `through` can need: the rows in that span, and each pair's last row before it.
    public func rateHistory(currencies: Set<Currency>, from: Instant, through: Instant) throws -> [ExchangeRate] {
        try read { db in try Self.rateHistory(db, currencies: currencies, window: (from, through)) }
    }
}
