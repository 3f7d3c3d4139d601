import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Schema and migrations")
struct SchemaTests {
    static let tables: Set<String> = [
        "asset_rows", "ledger", "tags", "tag_assignments", "ark_balances", "onchain_balances", "vtxos", "utxos",
        "ark_info", "chain_tips", "goals", "asset_allocations", "allocation_history", "monthly_plans",
        "execution_records", "execution_snapshots", "completed_executions", "exchange_rates", "rate_history",
        "ingest_runs", "settings", "change_counter",
        // Added by later migrations: which Esplora addresses are synced whole; ingest passes in
        // progress, the changes they staged and the digests of what sources sent.
        "esplora_synced_addresses", "ingest_passes", "staged_updates", "source_digests",
        // Added by a later migration: the digest of each completed month (`walletwatch check`).
        "completed_execution_digests",
        // Exact amounts and any currency: balances per asset (an EVM source's coin and tokens)
        // and the user's own units.
        "asset_balances", "currencies",
        // HD wallets: their watched addresses and the payments to reserved ones.
        "derived_addresses", "reserved_receipts",
        // Notifications: the outbox, who subscribes to what, each source's failed passes, goals reached.
        "notify_subscriptions", "notify_events", "notify_deliveries", "source_failures", "notify_goals_reached",
        // Regular saving plans: the plans, each due date handled, and the deposits reminders took.
        "saving_plans", "saving_plan_occurrences", "saving_plan_claims",
        // Electrum sources: raw transactions, block headers, each script's history, each
        // confirmed transaction's proof.
        "chain_transactions", "block_headers", "script_histories", "transaction_proofs",
        // EVM sources: each address and asset's figures and synced block, the pending rows'
        // blocks (for reorgs), the unwatched tokens seen (for doctor).
        "evm_sync", "evm_pending", "evm_unlisted_tokens",
    ]
    /// Readers see assets and transactions through views that leave out unpublished passes.
    static let views: Set<String> = ["assets", "transactions"]

    @Test("an empty file migrates to the whole data model of SPEC.md section 3")
    func emptyFile() throws {
        let folder = TemporaryDirectory()
        let database = try AppDatabase.open(path: folder.file("w.sqlite"))
        let names = try database.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
        }
        #expect(names == Self.tables)
        let views = try database.read { db in try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view'") }
        #expect(views == Self.views)
        let (foreignKeys, journal) = try database.read { db in
            (try Bool.fetchOne(db, sql: "PRAGMA foreign_keys")!, try String.fetchOne(db, sql: "PRAGMA journal_mode")!)
        }
        #expect(foreignKeys)
        #expect(journal == "wal")
    }

    @Test("the database file is created readable by its owner only (0600)")
    func privateFile() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("w.sqlite")
        _ = try AppDatabase.open(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! Int
        #expect(mode == 0o600)
    }

    @Test("a missing folder is a clear error naming the path")
    func missingFolder() {
        #expect {
            try AppDatabase.open(path: "/nonexistent-folder-xyz/w.sqlite")
        } throws: { error in
            (error as? StoreError)?.description.contains("/nonexistent-folder-xyz") == true
        }
    }

    /// Data written at each migration step, which must survive every later migration.
    static let fixtures: [String: @Sendable (Database) throws -> Void] = [
        "v1-data-model": { db in
            try db.execute(sql: """
                INSERT INTO assets (id, name, currency, kind, source, created_at) VALUES (1, 'Cash', 'USD', 'manual', NULL, '2026-11-01T00:00:00.000Z');
                INSERT INTO transactions (asset_id, txid, amount, type, status, direction, date, first_seen_at, last_updated)
                    VALUES (1, 'manual:aaa', 25050, 'manual', 'confirmed', 'incoming', '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z', '2026-11-02T10:00:00.000Z');
                INSERT INTO goals (id, name, currency, target, status, created_at) VALUES (1, 'House', 'USD', 1000000, 'active', '2026-11-01T00:00:00.000Z');
                INSERT INTO asset_allocations VALUES (1, 1, 20000, '2026-11-03T00:00:00.000Z');
                INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason)
                    VALUES (1, 1, 20000, '2026-11-03T00:00:00.000Z', '2026-11-03T00:00:00.000Z', '2026-11', 'allocate');
                INSERT INTO tags (id, name, is_active, created_at) VALUES ('00000000-0000-0000-0000-000000000001', 'salary', 1, '2026-11-01T00:00:00.000Z');
                INSERT INTO tag_assignments VALUES ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001', 'manual:aaa', '2026-11-02T10:00:00.000Z');
                """)
        },
    ]

    @Test("a file left at each earlier migration upgrades to the latest without losing data")
    func stepwiseUpgrades() throws {
        let identifiers = AppDatabase.migrationIdentifiers
        #expect(Set(Self.fixtures.keys).isSubset(of: Set(identifiers)))
        for (index, identifier) in identifiers.enumerated() {
            let folder = TemporaryDirectory()
            let queue = try DatabaseQueue(path: folder.file("old.sqlite"), configuration: AppDatabase.makeConfiguration())
            // Each step's data is written by that step's schema, as a file of that version holds it.
            for earlier in identifiers[...index] {
                try AppDatabase.migrate(queue, upTo: earlier)
                if let fixture = Self.fixtures[earlier] { try queue.write(fixture) }
            }
            let database = try AppDatabase(queue)
            let (transactions, tagged, history, integrity, foreignKeyProblems) = try database.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions")!,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag_assignments")!,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM allocation_history")!,
                 try String.fetchOne(db, sql: "PRAGMA integrity_check")!,
                 try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count)
            }
            #expect(transactions == 1 && tagged == 1 && history == 1, "data lost upgrading from \(identifier)")
            #expect(integrity == "ok")
            #expect(foreignKeyProblems == 0)
            #expect(try database.balances()[1]?.counted == 25050)
        }
    }

    /// The `ark_info` rows, one line each (a synchronous read: the test around it is async).
    static func arkInfoRows(_ database: AppDatabase) throws -> [String] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM ark_info ORDER BY source").map { row in
                row.columnNames.map { "\($0)=\(row[$0] ?? "null")" }.joined(separator: " ")
            }
        }
    }

    /// Runs `sql` on a connection not yet wrapped in an AppDatabase.
    static func execute(_ queue: DatabaseQueue, _ sql: String) throws {
        try queue.write { db in try db.execute(sql: sql) }
    }

    /// Runs `sql` in a write transaction; false when the database refused it.
    static func accepts(_ database: AppDatabase, _ sql: String) -> Bool {
        (try? database.writer.write { db in try db.execute(sql: sql) }) != nil
    }

    /// barkd master renamed `vtxo_expiry_delta` to `vtxo_lifetime` and will drop the old name;
    /// a daemon sending neither has an unknown lifetime, which the column must hold.
    @Test("v3-ark-info-lifetime keeps the stored Ark server info and lets the lifetime be unknown")
    func arkInfoLifetime() async throws {
        let folder = TemporaryDirectory()
        let queue = try DatabaseQueue(path: folder.file("old.sqlite"), configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrate(queue, upTo: "v2-esplora-synced-addresses")
        let unknown = "INSERT INTO ark_info VALUES ('other', 'signet', '03bb', '1m', NULL, '2026-11-02T00:00:00.000Z')"
        try Self.execute(queue, "INSERT INTO ark_info VALUES ('ark', 'bitcoin', '02aa', '30s', 4320, '2026-11-01T00:00:00.000Z')")
        #expect(throws: DatabaseError.self, "before v3 the lifetime was required") { try Self.execute(queue, unknown) }
        let database = try AppDatabase(queue)
        #expect(AppDatabase.migrationIdentifiers.contains("v3-ark-info-lifetime"))
        #expect(try Self.arkInfoRows(database) == [
            "source=ark network=bitcoin server_pubkey=02aa round_interval=30s vtxo_expiry_delta=4320 fetched_at=2026-11-01T00:00:00.000Z",
        ])
        #expect(Self.accepts(database, unknown))
        #expect(!Self.accepts(database, "UPDATE ark_info SET vtxo_expiry_delta = -1 WHERE source = 'ark'"))
        // An ingest stores an unknown lifetime as null, and a known one over it.
        let now = Instant.at("2026-11-21T12:00:00Z")
        _ = try await database.beginPass(source: "other", now: now).publish(startedAt: now) { publication in
            try publication.save(ArkServerInfo(network: "signet", serverPubkey: "03cc", roundInterval: "1m", vtxoLifetime: nil))
        }
        #expect(try Self.arkInfoRows(database).last
                == "source=other network=signet server_pubkey=03cc round_interval=1m vtxo_expiry_delta=null fetched_at=2026-11-21T12:00:00.000Z")
        _ = try await database.beginPass(source: "other", now: now).publish(startedAt: now) { publication in
            try publication.save(ArkServerInfo(network: "signet", serverPubkey: "03cc", roundInterval: "1m", vtxoLifetime: 2016))
        }
        #expect(try Self.arkInfoRows(database).last?.contains("vtxo_expiry_delta=2016 ") == true)
    }

    /// v6 rebuilds allocation_history to accept Rule 1b's rows: every row keeps its id, a deleted
    /// row's id is not given out again, and the table's rules (append-only, Rule 1 once) hold.
    @Test("v6-hd-wallets keeps the allocation history, its ids and its rules, and accepts rule1b rows once per goal")
    func hdWalletsMigration() throws {
        let folder = TemporaryDirectory()
        let queue = try DatabaseQueue(path: folder.file("old.sqlite"), configuration: AppDatabase.makeConfiguration())
        // The v1 fixture writes tables that v4 turned into views: written before v4, then migrated to v5.
        try AppDatabase.migrate(queue, upTo: "v3-ark-info-lifetime")
        try queue.write(Self.fixtures["v1-data-model"]!)
        try AppDatabase.migrate(queue, upTo: "v5-completed-execution-digests")
        try Self.execute(queue, """
            INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason)
                VALUES (1, 1, 30000, '2026-11-04T00:00:00.000Z', '2026-11-04T00:00:00.000Z', '2026-11', 'allocate');
            DELETE FROM allocation_history WHERE id = 2;
            """)
        let rule1b = { (goal: Int, txid: String) in """
            INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid)
            VALUES (1, \(goal), 5, '2026-11-05T00:00:00.000Z', '2026-11-05T00:00:00.000Z', '2026-11', 'rule1b', '\(txid)')
            """ }
        #expect(throws: DatabaseError.self, "before v6 there was no rule1b") { try Self.execute(queue, rule1b(1, "t1")) }
        let database = try AppDatabase(queue)
        let ids = try database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM allocation_history ORDER BY id") }
        #expect(ids == [1])
        #expect(Self.accepts(database, rule1b(1, "t1")))
        #expect(try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM allocation_history") } == 3)
        #expect(!Self.accepts(database, rule1b(1, "t1")), "Rule 1b writes a transaction's row once per goal")
        #expect(Self.accepts(database, "INSERT INTO goals (id, name, currency, target, status, created_at) VALUES (2, 'Car', 'USD', 1, 'active', '2026-11-01T00:00:00.000Z')"))
        #expect(Self.accepts(database, rule1b(2, "t1")), "one transaction may pay two goals' addresses")
        #expect(!Self.accepts(database, "UPDATE allocation_history SET amount = 1"), "still append-only")
        #expect(!Self.accepts(database, "INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason) VALUES (1, 1, 1, 'x', 'x', 'x', 'rule2')"))
        // A reserved address loses its reservation, not its row, when its goal is deleted.
        #expect(Self.accepts(database, """
            INSERT INTO derived_addresses (source, chain, address_index, script, address, reserved_goal_id, reserved_at)
            VALUES ('cold', 'receive', 0, '0014aa', 'bc1qaa', 2, '2026-11-05T00:00:00.000Z')
            """))
        #expect(!Self.accepts(database, "INSERT INTO derived_addresses (source, chain, address_index, script, address) VALUES ('cold', 'receive', 0, '0014bb', 'bc1qbb')"),
                "one address per chain index")
        #expect(Self.accepts(database, "DELETE FROM goals WHERE id = 2"))
        #expect(try database.read { db in try Row.fetchOne(db, sql: "SELECT reserved_goal_id FROM derived_addresses")?["reserved_goal_id"] as Int64? } == nil)
        #expect(try database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test("the database refuses what the rules forbid, whoever writes")
    func constraints() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrate(queue, upTo: "v1-data-model")
        try queue.write(Self.fixtures["v1-data-model"]!)
        let database = try AppDatabase(queue)
        try database.writer.write { db in
            // Currency and kind are locked once the asset has a transaction.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE asset_rows SET currency = 'EUR' WHERE id = 1") }
            try db.execute(sql: "UPDATE asset_rows SET name = 'Petty cash' WHERE id = 1")
            // The allocation history is append-only.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE allocation_history SET amount = 1") }
            // Rule 1 happens at most once per (asset, txid).
            try db.execute(sql: """
                INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid)
                VALUES (1, 1, 1, '2026-11-04T00:00:00.000Z', '2026-11-04T00:00:00.000Z', '2026-11', 'rule1', 'manual:aaa')
                """)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid)
                    VALUES (1, 1, 2, '2026-11-05T00:00:00.000Z', '2026-11-05T00:00:00.000Z', '2026-11', 'rule1', 'manual:aaa')
                    """)
            }
            // At most one executing month, one record per month.
            try db.execute(sql: "INSERT INTO execution_records (month_label, status) VALUES ('2026-10', 'executing')")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO execution_records (month_label, status) VALUES ('2026-11', 'executing')")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO execution_records (month_label, status) VALUES ('2026-10', 'draft')")
            }
            // A completed execution is immutable.
            try db.execute(sql: "INSERT INTO completed_executions (record_id, month_label, completed_at, goals, contributions, rates) VALUES (1, '2026-10', '2026-11-01T00:00:00.000Z', '[]', '[]', '{}')")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE completed_executions SET rates = '{\"x\":1}'") }
            // Amounts that are never negative.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE goals SET target = -1") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE asset_allocations SET amount = -1") }
            // Foreign keys are enforced.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO asset_allocations VALUES (99, 1, 5, '2026-11-01T00:00:00.000Z')")
            }
        }
    }
}
