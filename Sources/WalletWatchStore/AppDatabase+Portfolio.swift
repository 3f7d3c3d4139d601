import Foundation
import GRDB
import WalletWatchCore

extension AppDatabase {
    /// The assets' confirmed histories, the rate history between `currencies` and the
    /// allocation history.
    ///
    /// Of a run of equal rates of a pair only the first and the last row are kept: the rate at
    /// any date is the same without the others (a daemon with a static provider stores one
    /// such row every few minutes), and the last one keeps the pair as fresh as it is.
    public func portfolioData(rateCurrencies currencies: Set<Currency>) throws -> PortfolioData {
        try read { db in
            let movements = try Dictionary(grouping: Row.fetchAll(db, sql: """
                SELECT asset_id, amount, date FROM transactions WHERE status = 'confirmed' ORDER BY asset_id, date
                """), by: { try! $0.decode(Int64.self, forColumn: "asset_id") })
            let assets = try Asset.order(Column("name").collating(.nocase)).fetchAll(db).map { asset in
                PortfolioAsset(id: asset.id!, name: asset.name, currency: asset.currency, movements: try (movements[asset.id!] ?? []).map {
                    PortfolioAsset.Movement(amount: try $0.amount("amount"), date: try $0.decode(forColumn: "date"))
                })
            }
            return PortfolioData(assets: assets, rates: try Self.rateHistory(db, currencies: currencies),
                                 targetChanges: try Self.targetChanges(db))
        }
    }

    /// Moves whenever a rate is added to the history (the largest row id): caches of figures
    /// computed from the history compare it.
    public func rateHistoryVersion() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM rate_history") ?? 0 }
    }

    /// The rate history a conversion between any two of `currencies` can read: the stored pair
    /// of two of them, and the legs of a cross rate through one or two other currencies
    /// (``RateHistory/pairsNeeded(among:stored:)``); with a `window`, only what a lookup within
    /// it can need (the rows in it, and each pair's last row at or before its start).
    static func rateHistory(_ db: Database, currencies: Set<Currency>, window: (from: Instant, through: Instant)? = nil) throws -> [ExchangeRate] {
        guard currencies.count > 1 else { return [] }
        // The pairs stored at all: the index on (base, quote, fetched_at) answers this.
        var stored: Set<CurrencyPair> = []
        for row in try Row.fetchAll(db, sql: "SELECT DISTINCT base, quote FROM rate_history") {
            let base: String = row["base"], quote: String = row["quote"]
            guard let pair = CurrencyPair("\(base)/\(quote)") else { throw StoreError.corrupt("rate history pair \(base)/\(quote)") }
            stored.insert(pair)
        }
        let pairs = RateHistory.pairsNeeded(among: currencies, stored: stored).sorted()
        guard !pairs.isEmpty else { return [] }
        var span = ""
        var spanArguments: StatementArguments = []
        if let window {
            span = """
                 AND fetched_at <= ? AND fetched_at >= COALESCE((SELECT MAX(fetched_at) FROM rate_history p
                     WHERE p.base = h.base AND p.quote = h.quote AND p.fetched_at <= ?), ?)
                """
            spanArguments = [window.through, window.from, window.from]
        }
        // A run of equal rates of a pair (a static provider, a quiet market) keeps its first and
        // its last row: the first says since when the rate holds, the last how fresh it is,
        // which decides between a pair and its inverse (`RateHistory`). The rows between add
        // nothing but memory.
        var rates: [ExchangeRate] = []
        var previous: (base: String, quote: String, rate: String)?
        var runHasTail = false
        let statement = try db.cachedStatement(sql: """
            SELECT base, quote, rate, fetched_at, provider FROM rate_history h WHERE base = ? AND quote = ?\(span)
            ORDER BY fetched_at, id
            """)
        for pair in pairs {
            let rows = try Row.fetchCursor(statement, arguments: [pair.base, pair.quote] + spanArguments)
            while let row = try rows.next() {
                let base: String = row["base"], quote: String = row["quote"], text: String = row["rate"]
                let repeats = previous.map { $0 == (base, quote, text) } ?? false
                previous = (base, quote, text)
                guard let rate = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw StoreError.corrupt("rate history row \(base)/\(quote) '\(text)'")
                }
                let point = ExchangeRate(pair: pair, rate: rate, fetchedAt: try row.decode(forColumn: "fetched_at"), provider: row["provider"])
                if repeats && runHasTail {
                    rates[rates.count - 1] = point
                } else {
                    rates.append(point)
                    runHasTail = repeats
                }
            }
        }
        return rates
    }

    static func targetChanges(_ db: Database) throws -> [GoalTimeline.TargetChange] {
        try Row.fetchAll(db, sql: "SELECT asset_id, goal_id, amount, timestamp FROM allocation_history ORDER BY timestamp, created_at, id").map {
            GoalTimeline.TargetChange(assetID: try $0.decode(forColumn: "asset_id"), goalID: try $0.decode(forColumn: "goal_id"),
                                      amount: try $0.amount("amount"), timestamp: try $0.decode(forColumn: "timestamp"))
        }
    }

    /// Every allocation-history row of every asset, oldest first.
    public func allocationHistoryListings() throws -> [AllocationHistoryListing] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.name AS asset, a.currency, g.name AS goal, h.amount, h.timestamp, h.created_at, h.reason, h.txid
                FROM allocation_history h JOIN assets a ON a.id = h.asset_id JOIN goals g ON g.id = h.goal_id
                ORDER BY h.timestamp, h.created_at, h.id
                """).map {
                AllocationHistoryListing(
                    asset: try $0.decode(forColumn: "asset"), currency: try $0.decode(forColumn: "currency"),
                    goal: try $0.decode(forColumn: "goal"), amount: try $0.amount("amount"),
                    timestamp: try $0.decode(forColumn: "timestamp"), createdAt: try $0.decode(forColumn: "created_at"),
                    reason: try $0.decode(forColumn: "reason"), txid: try $0.decode(forColumn: "txid"))
            }
        }
    }
}
