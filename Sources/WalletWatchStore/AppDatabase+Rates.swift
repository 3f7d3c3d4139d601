import Foundation
import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Stores fetched rates as the latest of their pairs and appends them to the history.
    /// Rates do not move the change counter: cached figures follow rates by their own rule
    /// (dropped when a rate moves by more than 1%). A rate that is not positive is refused
    /// and nothing is stored: a price API's "no price" (-1, 0) is never a rate. A goal that the
    /// new rates fund to its target is announced (`goal.reached`) in the same transaction.
    public func saveRates(_ rates: [ExchangeRate]) async throws {
        try Self.requirePositive(rates.map { ($0.pair, $0.rate, $0.provider) })
        try await write { db in
            for rate in rates {
                let arguments: StatementArguments = [rate.pair.base, rate.pair.quote, "\(rate.rate)", rate.fetchedAt, rate.provider]
                try db.execute(sql: """
                    INSERT INTO exchange_rates (base, quote, rate, fetched_at, provider) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(base, quote) DO UPDATE SET rate = excluded.rate, fetched_at = excluded.fetched_at,
                        provider = excluded.provider
                    """, arguments: arguments)
                try db.execute(sql: "INSERT INTO rate_history (base, quote, rate, fetched_at, provider) VALUES (?, ?, ?, ?, ?)",
                               arguments: arguments)
            }
            if let now = rates.map(\.fetchedAt).max() { try Self.announceReachedGoals(now: now, in: db) }
        }
    }

    /// Refuses rates that are not positive, naming the first one: every way in (a price API,
    /// the static config, an imported file) checks its own, and this is the last guard.
    static func requirePositive(_ rates: [(pair: CurrencyPair, rate: Decimal, source: String)]) throws {
        if let bad = rates.first(where: { !($0.rate > 0) }) {
            throw Refusal("the \(bad.pair) rate \(bad.rate) from \(bad.source) is not positive; a rate must be above zero, and nothing was stored")
        }
    }

    /// The latest rate of every pair.
    public func latestRates() throws -> [ExchangeRate] {
        try read { db in try Self.latestRates(db) }
    }

    static func latestRates(_ db: Database) throws -> [ExchangeRate] {
        try Row.fetchAll(db, sql: "SELECT * FROM exchange_rates ORDER BY base, quote").map { row in
            let text: String = try row.decode(forColumn: "rate")
            guard let rate = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw StoreError.corrupt("exchange rate '\(text)'")
            }
            return ExchangeRate(pair: CurrencyPair(base: try row.decode(forColumn: "base"), quote: try row.decode(forColumn: "quote")),
                                rate: rate, fetchedAt: try row.decode(forColumn: "fetched_at"), provider: try row.decode(forColumn: "provider"))
        }
    }
}

/// The currencies a database's figures are in: what the rate provider must price.
public struct CurrenciesInUse: Sendable, Equatable {
    /// The assets' currencies.
    public var held: Set<Currency> = []
    /// The currencies of the goals that are not cancelled.
    public var goals: Set<Currency> = []
    /// The saving plans' currencies (a plan of 100 USD into ETH).
    public var plans: Set<Currency> = []

    public init(held: Set<Currency> = [], goals: Set<Currency> = [], plans: Set<Currency> = []) {
        self.held = held
        self.goals = goals
        self.plans = plans
    }
}

extension AppDatabase {
    /// The currencies of the assets, the goals (not cancelled) and the saving plans.
    public func currenciesInUse() throws -> CurrenciesInUse {
        try read { db in
            func codes(_ sql: String) throws -> Set<Currency> { Set(try Currency.fetchAll(db, sql: sql)) }
            return CurrenciesInUse(held: try codes("SELECT DISTINCT currency FROM assets"),
                                   goals: try codes("SELECT DISTINCT currency FROM goals WHERE status != 'cancelled'"),
                                   plans: try codes("SELECT DISTINCT currency FROM saving_plans"))
        }
    }

    /// Stores a price the user set by hand (`rates set`) as a provider's point is stored: in the
    /// rate history at its instant and, when it is the newest of its pair, as the pair's latest
    /// rate. A hand-set price of the same pair (either direction) at the same instant is
    /// replaced: setting it again corrects it. Returns whether it became the latest rate and
    /// whether it replaced an earlier one. A goal the price funds to its target is announced.
    public func saveManualRate(_ rate: ExchangeRate, now: Instant) async throws -> (latest: Bool, replaced: Bool) {
        try Self.requirePositive([(rate.pair, rate.rate, rate.provider)])
        return try await write { db in
            let pair = rate.pair
            let sameInstant = "((base = ? AND quote = ?) OR (base = ? AND quote = ?)) AND fetched_at = ? AND provider = ?"
            let arguments: StatementArguments = [pair.base, pair.quote, pair.quote, pair.base, rate.fetchedAt, rate.provider]
            try db.execute(sql: "DELETE FROM rate_history WHERE \(sameInstant)", arguments: arguments)
            let replaced = db.changesCount > 0
            try db.execute(sql: "INSERT INTO rate_history (base, quote, rate, fetched_at, provider) VALUES (?, ?, ?, ?, ?)",
                           arguments: [pair.base, pair.quote, "\(rate.rate)", rate.fetchedAt, rate.provider])
            // The inverse pair's latest rate, when it was this very price set before, goes: the
            // history's newest row of that direction takes its place (or none).
            if replaced {
                if let inverse = try Row.fetchOne(db, sql: "SELECT fetched_at, provider FROM exchange_rates WHERE base = ? AND quote = ?",
                                                  arguments: [pair.quote, pair.base]),
                   (try inverse.decode(Instant.self, forColumn: "fetched_at")) == rate.fetchedAt, inverse["provider"] as String == rate.provider {
                    try db.execute(sql: "DELETE FROM exchange_rates WHERE base = ? AND quote = ?", arguments: [pair.quote, pair.base])
                    try db.execute(sql: """
                        INSERT INTO exchange_rates (base, quote, rate, fetched_at, provider)
                        SELECT base, quote, rate, fetched_at, provider FROM rate_history WHERE base = ? AND quote = ?
                        ORDER BY fetched_at DESC, id DESC LIMIT 1
                        """, arguments: [pair.quote, pair.base])
                }
            }
            let storedAt = try Instant.fetchOne(db, sql: "SELECT fetched_at FROM exchange_rates WHERE base = ? AND quote = ?",
                                                arguments: [pair.base, pair.quote])
            var latest = false
            if storedAt.map({ $0 <= rate.fetchedAt }) ?? true {
                try db.execute(sql: """
                    INSERT INTO exchange_rates (base, quote, rate, fetched_at, provider) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(base, quote) DO UPDATE SET rate = excluded.rate, fetched_at = excluded.fetched_at, provider = excluded.provider
                    """, arguments: [pair.base, pair.quote, "\(rate.rate)", rate.fetchedAt, rate.provider])
                latest = true
            }
            try Self.announceReachedGoals(now: now, in: db)
            return (latest, replaced)
        }
    }
}

extension AppDatabase {
    /// The value of a setting, or nil.
    public func setting(_ key: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key]) }
    }

    /// Every setting that is set.
    public func settings() throws -> [String: String] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM settings").map {
                (try $0.decode(String.self, forColumn: "key"), try $0.decode(String.self, forColumn: "value"))
            })
        }
    }

    /// Sets (or, with nil, removes) a setting.
    public func setSetting(_ key: String, _ value: String?) throws {
        try write { db in
            if let value {
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [key])
            }
            try Self.bumpChangeCounter(db)
        }
    }
}
