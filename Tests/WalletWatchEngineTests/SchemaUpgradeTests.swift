import Foundation
import GRDB
import Logging
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchStore

/// Upgrades from databases that earlier versions of walletwatch wrote themselves: one file per
/// earlier schema version in Fixtures/schemas, named after its last migration and made by that
/// version's command line against its simulator (Fixtures/schemas/README.md says how). Each is
/// opened by the current code on a copy; every row of every table must come through unchanged
/// (the columns it had, the same values), and the current use cases must read it. A later
/// version needs only a new file here.
@Suite("Upgrades: a database of each earlier schema version")
struct SchemaUpgradeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/schemas")

    /// The fixture files, oldest schema first.
    static var fixtures: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let order = AppDatabase.migrationIdentifiers
        return names.filter { $0.hasSuffix(".sqlite") }.sorted {
            (order.firstIndex(of: String($0.dropLast(7))) ?? .max) < (order.firstIndex(of: String($1.dropLast(7))) ?? .max)
        }
    }

    /// Every table's columns and rows, each row one string of SQLite's own quoting of its values.
    struct Contents: Equatable {
        var columns: [String: [String]] = [:]
        var rows: [String: [String]] = [:]
    }

    static func contents(_ db: Database, only columns: [String: [String]]? = nil) throws -> Contents {
        var contents = Contents()
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' ORDER BY name
            """)
        for table in columns.map({ Array($0.keys).sorted() }) ?? tables {
            let names = try columns?[table] ?? Row.fetchAll(db, sql: "PRAGMA table_info(\"\(table)\")").map { $0["name"] as String }
            let select = names.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
            contents.columns[table] = names
            contents.rows[table] = try String.fetchAll(db, sql: "SELECT \(select) FROM \"\(table)\" ORDER BY 1")
        }
        return contents
    }

    @Test("every earlier schema version has a fixture, named after a migration this code knows")
    func coverage() {
        let identifiers = AppDatabase.migrationIdentifiers
        let covered = Set(Self.fixtures.map { String($0.dropLast(".sqlite".count)) })
        #expect(covered.isSubset(of: Set(identifiers)), "\(covered)")
        // The current version needs none; every one before it does (scripts/make-schema-fixture).
        for identifier in identifiers.dropLast() {
            #expect(covered.contains(identifier), "no database of schema \(identifier) in Fixtures/schemas: make one with scripts/make-schema-fixture")
        }
    }

    @Test("each earlier version's database upgrades with every row kept, and the current use cases read it", arguments: fixtures)
    func upgrade(_ fixture: String) async throws {
        let version = String(fixture.dropLast(".sqlite".count))
        let work = TemporaryDirectory("walletwatch-upgrade")
        let path = work.file("walletwatch.sqlite")
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent(fixture).path, toPath: path)

        let (applied, before) = try await DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"), try Self.contents(db))
        }
        #expect(applied.last == version, "\(fixture) was made at \(applied)")
        // Real rows in every table, or the upgrade proves little; the tables of a pass in
        // progress are empty whenever no pass runs, so a database at rest has none there.
        var emptyAtRest: Set<String> = ["ingest_passes", "staged_updates"]
        // From v6 on, the demo's Esplora source is an HD wallet, whose listed addresses are kept
        // in derived_addresses; the earlier fixtures carry esplora_synced_addresses' rows.
        if before.rows["derived_addresses"]?.isEmpty == false { emptyAtRest.insert("esplora_synced_addresses") }
        // v11 added asset_balances for sources that report one balance per asset; the first
        // such source (evm) came with v12, so a v11 database has no writer of that table.
        if applied.last == "v11-exact-amounts" { emptyAtRest.insert("asset_balances") }
        for (table, rows) in before.rows where !emptyAtRest.contains(table) {
            #expect(!rows.isEmpty, "\(fixture): \(table) is empty")
        }

        let database = try AppDatabase.open(path: path)
        let after = try await DatabaseQueue(path: path).read { db in
            (try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"), try Self.contents(db, only: before.columns))
        }
        #expect(after.0 == AppDatabase.migrationIdentifiers)
        for (table, rows) in before.rows {
            #expect(after.1.rows[table]?.count == rows.count, "\(fixture): \(table) had \(rows.count) rows")
            #expect(after.1.rows[table] == rows, "\(fixture): \(table) changed")
        }

        // The current code reads it through its use cases.
        var config = AppConfig(file: nil, database: path)
        config.rates = RatesConfig(provider: .static, currencies: [.usd, .eur],
                                   staticRates: [CurrencyPair(base: .btc, quote: .usd): 65000, CurrencyPair(base: .btc, quote: .eur): 60000])
        let logger = Logger(label: "walletwatch-test")
        let engine = Engine(storage: Storage(database), config: config, clock: .fixed(.at("2026-12-01T10:00:00Z")),
                            http: CurlHTTPClient(configuration: HTTPClientConfiguration(userAgent: "walletwatch-test"), logger: logger), logger: logger)
        // From v4 on, transactions and assets are views over the tables ledger and asset_rows.
        let underlying = ["transactions": "ledger", "assets": "asset_rows"]
        let count = { (table: String) in (before.rows[table] ?? underlying[table].flatMap { before.rows[$0] })?.count ?? -1 }
        #expect(try engine.ledger.transactions().count == count("transactions"))
        let assets = try engine.ledger.assetOverviews()
        #expect(assets.count == count("assets"))
        let history = try assets.reduce(0) { $0 + (try engine.allocations.history(asset: $1.asset.name).entries.count) }
        #expect(history == count("allocation_history"))
        #expect(try engine.tags.summaries().count == count("tags"))
        #expect(try engine.goals.overviews().count == count("goals"))
        #expect(try engine.preferences.value("time_zone") == "Europe/Berlin")
        let closed = try engine.month.history()
        #expect(closed.count == count("completed_executions"))
        #expect(closed.first?.record.month.description == "2026-11")
        let november = try await engine.month.status(month: MonthLabel("2026-11"), refreshRates: .never)
        #expect(november.state == .closed)
        let december = try await engine.month.status(refreshRates: .never)
        #expect(december.state == .executing && december.month.description == "2026-12")
        _ = try await engine.reports.portfolio(refresh: .never)
        // The upgraded database passes check: the digest of its completed month was computed
        // by the migration that added digests, from the month as stored.
        #expect(try engine.checkup.run() == [], "\(fixture)")
    }
}
