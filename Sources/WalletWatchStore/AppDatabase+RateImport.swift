import GRDB
import WalletWatchCore

extension AppDatabase {
    /// The provider name imported prices are stored under.
    public static let importProvider = "import"

    /// Adds imported prices to the rate history in one transaction: all or nothing.
    ///
    /// A price for a pair (in either direction) and date that an earlier import already holds is
    /// a duplicate: refused (naming the lines) unless `replace`, which deletes the earlier imported rows
    /// first (the history refuses updates, not deletes). Fetched rates are observations at
    /// their own instants and never conflict with an import. A pair whose newest rate is now
    /// an imported one gets it as its latest rate too, so conversions can use it.
    public func importRates(_ rates: [ImportedRate], replace: Bool, source: String) throws -> RateImportResult {
        try Self.requirePositive(rates.map { ($0.pair, $0.rate, "\(source) line \($0.line)") })
        return try write { db in
            let sameDate = "((base = ? AND quote = ?) OR (base = ? AND quote = ?)) AND fetched_at = ? AND provider = ?"
            func arguments(_ rate: ImportedRate) -> StatementArguments {
                [rate.pair.base, rate.pair.quote, rate.pair.quote, rate.pair.base, rate.instant, Self.importProvider]
            }
            let existing = try db.cachedStatement(sql: "SELECT COUNT(*) FROM rate_history WHERE \(sameDate)")
            var duplicates: [ImportedRate] = []
            for rate in rates {
                let count = try Int.fetchOne(existing, arguments: arguments(rate)) ?? 0
                if count > 0 { duplicates.append(rate) }
            }
            if !duplicates.isEmpty && !replace {
                let named = duplicates.prefix(5).map { "line \($0.line): \($0.pair) on \($0.dateText)" }.joined(separator: "; ")
                throw Refusal("\(duplicates.count) price(s) in \(source) were imported before (\(named)\(duplicates.count > 5 ? "; ..." : "")); nothing imported; pass --replace to overwrite them")
            }
            for rate in duplicates {
                try db.execute(sql: "DELETE FROM rate_history WHERE \(sameDate)", arguments: arguments(rate))
            }
            // A replaced price may have been its pair's latest rate (the inverse direction is
            // not re-promoted below): the latest is then the newest row the history still holds.
            for pair in Set(duplicates.map { CurrencyPair(base: $0.pair.quote, quote: $0.pair.base) }) {
                try Self.restoreLatestAfterReplace(db, pair: pair)
            }
            let insert = try db.cachedStatement(sql: "INSERT INTO rate_history (base, quote, rate, fetched_at, provider) VALUES (?, ?, ?, ?, ?)")
            for rate in rates {
                try insert.execute(arguments: [rate.pair.base, rate.pair.quote, "\(rate.rate)", rate.instant, Self.importProvider])
            }
            var updated: [CurrencyPair] = []
            for pair in Set(rates.map(\.pair)).sorted() {
                if try Self.promoteLatest(db, pair: pair) { updated.append(pair) }
            }
            return RateImportResult(imported: rates.count, replaced: duplicates.count, latestUpdated: updated)
        }
    }

    /// When `pair`'s latest rate came from an import, sets it to the newest row of its history
    /// (or removes it when the history holds none): fetched latest rates are never touched.
    static func restoreLatestAfterReplace(_ db: Database, pair: CurrencyPair) throws {
        let provider = try String.fetchOne(db, sql: "SELECT provider FROM exchange_rates WHERE base = ? AND quote = ?",
                                           arguments: [pair.base, pair.quote])
        guard provider == importProvider else { return }
        try db.execute(sql: "DELETE FROM exchange_rates WHERE base = ? AND quote = ?", arguments: [pair.base, pair.quote])
        try db.execute(sql: """
            INSERT INTO exchange_rates (base, quote, rate, fetched_at, provider)
            SELECT base, quote, rate, fetched_at, provider FROM rate_history WHERE base = ? AND quote = ?
            ORDER BY fetched_at DESC, id DESC LIMIT 1
            """, arguments: [pair.base, pair.quote])
    }

    /// Makes the newest history row of `pair` its latest rate when it is an imported one at or
    /// after the stored latest (or none is stored). Returns whether it did.
    static func promoteLatest(_ db: Database, pair: CurrencyPair) throws -> Bool {
        guard let newest = try Row.fetchOne(db, sql: """
            SELECT rate, fetched_at, provider FROM rate_history WHERE base = ? AND quote = ? ORDER BY fetched_at DESC, id DESC LIMIT 1
            """, arguments: [pair.base, pair.quote]),
              newest["provider"] as String == importProvider
        else { return false }
        let newestAt: Instant = try newest.decode(forColumn: "fetched_at")
        let storedAt = try Instant.fetchOne(db, sql: "SELECT fetched_at FROM exchange_rates WHERE base = ? AND quote = ?",
                                            arguments: [pair.base, pair.quote])
        if let storedAt, storedAt > newestAt { return false }
        try db.execute(sql: """
            INSERT INTO exchange_rates (base, quote, rate, fetched_at, provider) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(base, quote) DO UPDATE SET rate = excluded.rate, fetched_at = excluded.fetched_at, provider = excluded.provider
            """, arguments: [pair.base, pair.quote, newest["rate"] as String, newestAt, importProvider])
        return true
    }
}
