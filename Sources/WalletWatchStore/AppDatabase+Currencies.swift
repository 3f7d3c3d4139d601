import GRDB
import WalletWatchCore

extension AppDatabase {
    /// The currencies of this database: ISO money, the built-in coins and tokens, and the units
    /// its user added.
    public func currencyRegistry() throws -> CurrencyRegistry {
        try writer.read { try Self.currencyRegistry($0) }
    }

    /// The registry with the units stored in `db` (none before the migration that adds them).
    static func currencyRegistry(_ db: Database) throws -> CurrencyRegistry {
        guard try db.tableExists("currencies") else { return CurrencyRegistry() }
        let custom = try Row.fetchAll(db, sql: "SELECT code, decimals, coingecko_id, name FROM currencies ORDER BY code").map {
            CurrencyDefinition(code: $0["code"], decimals: $0["decimals"], coingeckoID: $0["coingecko_id"], name: $0["name"], kind: .custom)
        }
        return custom.isEmpty ? CurrencyRegistry() : CurrencyRegistry(custom: custom)
    }

    /// Adds a unit of the user's own (`currency add`): a share, a gram of gold, a coin not built in.
    public func addCurrency(code: String, decimals: Int, coingeckoID: String?, name: String?, now: Instant) throws -> CurrencyDefinition {
        try write { db in
            let definition = try Self.currencyRegistry(db).validateNew(code: code, decimals: decimals, coingeckoID: coingeckoID, name: name)
            try db.execute(sql: "INSERT INTO currencies (code, decimals, coingecko_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [definition.code, definition.decimals, definition.coingeckoID, definition.name, now])
            try Self.bumpChangeCounter(db)
            return definition
        }
    }

    /// Removes a unit of the user's own; refused while an asset, a goal, a saving plan, a rate
    /// or the display currency uses it (their amounts would lose their meaning).
    public func removeCurrency(code: String) throws {
        try write { db in
            let upper = code.uppercased()
            let registry = try Self.currencyRegistry(db)
            guard let definition = registry.definition(upper) else { throw Refusal(CurrencyError(code: code).description) }
            guard definition.kind == .custom else {
                throw Refusal("currency '\(upper)' is \(definition.kind == .iso ? "ISO 4217 money" : "built in"); only units added with `currency add` can be removed")
            }
            let uses: [(String, String)] = [
                ("asset", "SELECT name FROM asset_rows WHERE currency = ? ORDER BY name LIMIT 1"),
                ("goal", "SELECT name FROM goals WHERE currency = ? ORDER BY name LIMIT 1"),
                ("saving plan", "SELECT name FROM saving_plans WHERE currency = ? ORDER BY name LIMIT 1"),
                ("rate", "SELECT base || '/' || quote FROM exchange_rates WHERE base = ?1 OR quote = ?1 LIMIT 1"),
                ("price history", "SELECT base || '/' || quote FROM rate_history WHERE base = ?1 OR quote = ?1 LIMIT 1"),
                ("setting", "SELECT key FROM settings WHERE key = 'display_currency' AND upper(value) = ?"),
            ]
            for (what, sql) in uses {
                if let user = try String.fetchOne(db, sql: sql, arguments: [upper]) {
                    throw Refusal("currency '\(upper)' is in use by \(what) '\(user)'; remove or change that first")
                }
            }
            try db.execute(sql: "DELETE FROM currencies WHERE code = ?", arguments: [upper])
            try Self.bumpChangeCounter(db)
        }
    }
}
