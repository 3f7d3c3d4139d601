import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Creates a manual asset (cash, a bank account) fed by `tx add`.
    public func createManualAsset(name rawName: String, currency: Currency, now: Instant) throws -> Asset {
        let name = try Name.validated(rawName, what: "asset")
        return try write { db in
            try Self.ensureNameIsFree(db, table: AssetRow.databaseTableName, name: name, what: "asset")
            var asset = Asset(name: name, currency: currency, kind: .manual, source: nil, createdAt: now)
            try asset.insert(db)
            try Self.bumpChangeCounter(db)
            return asset
        }
    }

    /// Renames an asset or changes its currency. The currency is locked once the asset has a
    /// transaction, because the amounts already stored would change meaning.
    public func editAsset(named: String, newName: String?, newCurrency: Currency?) throws -> Asset {
        let validatedName = try newName.map { name throws(UsageError) in try Name.validated(name, what: "asset") }
        return try write { db in
            var asset = try Self.findAsset(db, named: named)
            if let validatedName, Name.key(validatedName) != Name.key(asset.name) {
                try Self.ensureNameIsFree(db, table: AssetRow.databaseTableName, name: validatedName, what: "asset")
            }
            if let newCurrency, newCurrency != asset.currency {
                let count = try Transaction.filter(Column("asset_id") == asset.id).fetchCount(db)
                guard count == 0 else {
                    throw Refusal("the currency of '\(asset.name)' is locked: it has \(count) transaction(s) in \(asset.currency.code); create a new asset for \(newCurrency.code) instead")
                }
                asset.currency = newCurrency
            }
            if let validatedName { asset.name = validatedName }
            try asset.update(db)
            try Self.bumpChangeCounter(db)
            return asset
        }
    }

    /// Every asset, by name.
    public func assets() throws -> [Asset] {
        try read { db in try Asset.order(Column("name").collating(.nocase)).fetchAll(db) }
    }

    /// The asset called `name` (case-insensitively), or a refusal naming it.
    public func asset(named name: String) throws -> Asset {
        try read { db in try Self.findAsset(db, named: name) }
    }

    /// The balance of every asset by id, computed as SPEC.md section 6 says.
    public func balances() throws -> [Int64: AssetBalance] {
        try read { db in try Self.balances(db) }
    }

    // MARK: - Helpers shared by the write methods

    static func findAsset(_ db: Database, named name: String) throws -> Asset {
        let key = Name.key(name)
        guard let asset = try Asset.fetchAll(db).first(where: { Name.key($0.name) == key }) else {
            throw Refusal("no asset named '\(name.trimmingSpaces)'; `walletwatch asset list` shows the assets")
        }
        return asset
    }

    /// Refuses a name already used in `table`, compared case-insensitively in every script
    /// (SQLite's NOCASE only folds ASCII; the write transaction makes check-then-insert safe).
    static func ensureNameIsFree(_ db: Database, table: String, name: String, what: String) throws {
        let key = Name.key(name)
        let names = try String.fetchAll(db, sql: "SELECT name FROM \(table)")
        if let existing = names.first(where: { Name.key($0) == key }) {
            throw Refusal("\(what) '\(existing)' already exists; choose another name")
        }
    }

    static func balances(_ db: Database) throws -> [Int64: AssetBalance] {
        let ark = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT * FROM ark_balances").map {
            (try $0.decode(String.self, forColumn: "source"), try SourceArkBalance(row: $0))
        })
        let onchain = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT * FROM onchain_balances").map {
            (try $0.decode(String.self, forColumn: "source"), try SourceOnchainBalance(row: $0))
        })
        let manualSums = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
            SELECT asset_id, amount_total(amount) AS total FROM transactions
            WHERE status = 'confirmed' AND asset_id IN (SELECT id FROM assets WHERE kind = 'manual')
            GROUP BY asset_id
            """).map { (try $0.decode(Int64.self, forColumn: "asset_id"), try $0.amount("total")) })
        // Assets whose source reports one balance per asset (an EVM source's coin and tokens).
        let perAsset = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT asset_id, counted, pending, last_updated FROM asset_balances").map {
            (try $0.decode(Int64.self, forColumn: "asset_id"),
             AssetBalance(counted: try $0.amount("counted"), pending: try $0.amount("pending"), lastUpdated: try $0.decode(forColumn: "last_updated")))
        })
        var result: [Int64: AssetBalance] = [:]
        for asset in try Asset.fetchAll(db) {
            guard let id = asset.id else { continue }
            switch asset.kind {
            case .manual:
                result[id] = AssetBalance(counted: manualSums[id] ?? 0)
            case .ark:
                let row = asset.source.flatMap { ark[$0] }
                result[id] = row.map {
                    AssetBalance(counted: Int128($0.balance.counted), pending: Int128($0.balance.pending),
                                 sending: Int128($0.balance.sending), lastUpdated: $0.lastUpdated)
                } ?? AssetBalance(counted: 0)
            case .onchain, .addresses:
                let row = asset.source.flatMap { onchain[$0] }
                result[id] = row.map {
                    AssetBalance(counted: Int128($0.balance.counted), pending: Int128($0.balance.pending), lastUpdated: $0.lastUpdated)
                } ?? AssetBalance(counted: 0)
            case .evm:
                result[id] = perAsset[id] ?? AssetBalance(counted: 0)
            }
        }
        return result
    }

    /// Marks a change that caches and live views must notice.
    static func bumpChangeCounter(_ db: Database) throws {
        try db.execute(sql: "UPDATE change_counter SET value = value + 1 WHERE id = 1")
    }

    /// The change counter: it moves whenever a transaction, allocation, goal or balance changes.
    public func changeCounter() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM change_counter WHERE id = 1") ?? 0 }
    }
}
