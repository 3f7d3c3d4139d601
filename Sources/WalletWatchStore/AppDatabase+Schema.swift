import GRDB

extension AppDatabase {
    /// The numbered migrations. A migration, once released, is never edited: later changes are
    /// new migrations appended below.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-data-model") { db in
            for statement in Schema.version1 { try db.execute(sql: statement) }
        }
        // The addresses each Esplora source has synced completely: only those may stop paging
        // at the first known transaction (an address added later pages its whole history once).
        migrator.registerMigration("v2-esplora-synced-addresses") { db in
            try db.execute(sql: """
                CREATE TABLE esplora_synced_addresses (
                    source TEXT NOT NULL,
                    address TEXT NOT NULL,
                    synced_at TEXT NOT NULL,
                    PRIMARY KEY (source, address)
                )
                """)
        }
        // barkd renamed ArkInfo's `vtxo_expiry_delta` to `vtxo_lifetime` and will drop the old
        // name: a daemon may send neither, so the lifetime becomes nullable. SQLite cannot drop
        // a NOT NULL constraint in place; the table (no index, trigger or foreign key refers to
        // it) is rebuilt with its rows.
        migrator.registerMigration("v3-ark-info-lifetime") { db in
            try db.execute(sql: """
                CREATE TABLE ark_info_v3 (
                    source TEXT PRIMARY KEY NOT NULL,
                    network TEXT NOT NULL,
                    server_pubkey TEXT NOT NULL,
                    round_interval TEXT NOT NULL,
                    vtxo_expiry_delta INTEGER CHECK (vtxo_expiry_delta IS NULL OR vtxo_expiry_delta >= 0),
                    fetched_at TEXT NOT NULL
                );
                INSERT INTO ark_info_v3 (source, network, server_pubkey, round_interval, vtxo_expiry_delta, fetched_at)
                    SELECT source, network, server_pubkey, round_interval, vtxo_expiry_delta, fetched_at FROM ark_info;
                DROP TABLE ark_info;
                ALTER TABLE ark_info_v3 RENAME TO ark_info;
                """)
        }
        // The ingest writes a big pass in short transactions that readers cannot see until it
        // publishes (Schema.version4 says how).
        migrator.registerMigration("v4-ledger-passes") { db in
            for statement in Schema.version4 { try db.execute(sql: statement) }
        }
        // A digest of each completed month, written with it, so that `walletwatch check` can
        // tell a month changed after it was closed (SPEC.md section 20). Months completed
        // before this migration get the digest of their rows as they are now.
        migrator.registerMigration("v5-completed-execution-digests") { db in
            try CompletedMonthDigest.migrate(db)
        }
        // HD wallets (SPEC.md sections 15 and 16): each source's watched addresses, derived once
        // and kept with what the explorer last said about them and the goal an address is
        // reserved for; the payments to reserved addresses (Rule 1b's input); and 'rule1b' as a
        // reason of allocation history, which needs the table rebuilt (SQLite cannot change a
        // CHECK constraint in place; nothing refers to the table, its rows keep their ids).
        migrator.registerMigration("v6-hd-wallets") { db in
            try db.execute(sql: """
                CREATE TABLE derived_addresses (
                    source TEXT NOT NULL,
                    chain TEXT NOT NULL CHECK (chain IN ('receive', 'change', 'listed')),
                    address_index INTEGER NOT NULL CHECK (address_index >= 0),
                    script TEXT NOT NULL,
                    address TEXT NOT NULL,
                    first_used_at TEXT,
                    chain_tx_count INTEGER NOT NULL DEFAULT 0 CHECK (chain_tx_count >= 0),
                    funded INTEGER NOT NULL DEFAULT 0 CHECK (funded >= 0),
                    spent INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0),
                    mempool_tx_count INTEGER NOT NULL DEFAULT 0 CHECK (mempool_tx_count >= 0),
                    mempool_delta INTEGER NOT NULL DEFAULT 0,
                    synced_at TEXT,
                    reserved_goal_id INTEGER REFERENCES goals(id) ON DELETE SET NULL,
                    reserved_at TEXT,
                    PRIMARY KEY (source, address)
                );
                CREATE UNIQUE INDEX derived_addresses_by_index ON derived_addresses(source, chain, address_index) WHERE chain != 'listed';
                CREATE INDEX derived_addresses_by_goal ON derived_addresses(reserved_goal_id) WHERE reserved_goal_id IS NOT NULL;
                CREATE TABLE reserved_receipts (
                    source TEXT NOT NULL,
                    txid TEXT NOT NULL,
                    address TEXT NOT NULL,
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    recorded_at TEXT NOT NULL,
                    PRIMARY KEY (source, txid, address)
                );
                CREATE TABLE allocation_history_v6 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    asset_id INTEGER NOT NULL REFERENCES asset_rows(id) ON DELETE CASCADE,
                    goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
                    amount INTEGER NOT NULL CHECK (amount >= 0),
                    timestamp TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    month_label TEXT NOT NULL,
                    reason TEXT NOT NULL CHECK (reason IN ('allocate', 'rule1', 'rule1b', 'rule1-adjust', 'cancel', 'close-goal')),
                    txid TEXT
                );
                INSERT INTO allocation_history_v6 (id, asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid)
                    SELECT id, asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid FROM allocation_history;
                -- Ids of deleted rows (a deleted goal's) are not given out again.
                DELETE FROM sqlite_sequence WHERE name = 'allocation_history_v6';
                INSERT INTO sqlite_sequence (name, seq) SELECT 'allocation_history_v6', seq FROM sqlite_sequence WHERE name = 'allocation_history';
                DROP TABLE allocation_history;
                ALTER TABLE allocation_history_v6 RENAME TO allocation_history;
                CREATE INDEX allocation_history_by_pair ON allocation_history(asset_id, goal_id, timestamp, created_at, id);
                CREATE INDEX allocation_history_by_time ON allocation_history(timestamp);
                CREATE UNIQUE INDEX allocation_history_rule1_once ON allocation_history(asset_id, txid) WHERE reason = 'rule1';
                CREATE UNIQUE INDEX allocation_history_rule1b_once ON allocation_history(asset_id, goal_id, txid) WHERE reason = 'rule1b';
                CREATE TRIGGER allocation_history_append_only BEFORE UPDATE ON allocation_history
                BEGIN
                    SELECT RAISE(ABORT, 'allocation history is append-only');
                END;
                """)
        }
        // Notifications (SPEC.md section 18): the outbox. An event is one row, written in the
        // transaction of its cause, with one delivery row per target subscribed to it then
        // (`notify_subscriptions` mirrors the config's `[[notify]]` entries); a target's
        // deliveries go out in the events' order (`seq`). Each source's run of failed passes
        // is kept beside, written with its `ingest_runs` row, for `source.failing`/`recovered`,
        // and the goals whose `goal.reached` was sent (once per goal).
        migrator.registerMigration("v7-notify-outbox") { db in
            try db.execute(sql: """
                CREATE TABLE notify_subscriptions (
                    target TEXT NOT NULL,
                    event TEXT NOT NULL,
                    PRIMARY KEY (target, event)
                ) WITHOUT ROWID;
                CREATE TABLE notify_events (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    event TEXT NOT NULL,
                    at TEXT NOT NULL,
                    data TEXT NOT NULL,
                    created_at TEXT NOT NULL
                );
                CREATE TABLE notify_deliveries (
                    event_seq INTEGER NOT NULL REFERENCES notify_events(seq) ON DELETE CASCADE,
                    target TEXT NOT NULL,
                    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
                    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                    first_attempt_at TEXT,
                    next_attempt_at TEXT,
                    delivered_at TEXT,
                    last_error TEXT,
                    PRIMARY KEY (target, event_seq)
                ) WITHOUT ROWID;
                CREATE INDEX notify_deliveries_pending ON notify_deliveries(target, event_seq) WHERE status = 'pending';
                CREATE INDEX notify_deliveries_by_event ON notify_deliveries(event_seq);
                CREATE TABLE source_failures (
                    source TEXT PRIMARY KEY NOT NULL,
                    consecutive INTEGER NOT NULL CHECK (consecutive >= 0),
                    last_error TEXT,
                    failing_notified INTEGER NOT NULL DEFAULT 0 CHECK (failing_notified IN (0, 1))
                ) WITHOUT ROWID;
                CREATE TABLE notify_goals_reached (
                    goal_id INTEGER PRIMARY KEY REFERENCES goals(id) ON DELETE CASCADE,
                    reached_at TEXT NOT NULL
                );
                """)
        }
        // Regular saving plans (SPEC.md section 19). Each due date a plan has handled is one
        // occurrence, keyed by (plan, due): the key makes "each date once" the database's rule,
        // and an automatic plan's occurrence is written in the transaction that records its
        // deposit (`txid`). A reminder's claims name the deposits that fulfilled it, one
        // reminder per deposit at most (the key on the deposit).
        migrator.registerMigration("v8-saving-plans") { db in
            try db.execute(sql: """
                CREATE TABLE saving_plans (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
                    asset_id INTEGER NOT NULL REFERENCES asset_rows(id) ON DELETE CASCADE,
                    amount INTEGER NOT NULL CHECK (amount > 0),
                    currency TEXT NOT NULL,
                    every TEXT NOT NULL CHECK (every IN ('day', 'week', 'month')),
                    start TEXT NOT NULL,
                    method TEXT NOT NULL CHECK (method IN ('reminder', 'automatic')),
                    created_at TEXT NOT NULL
                );
                CREATE INDEX saving_plans_by_asset ON saving_plans(asset_id);
                CREATE INDEX saving_plans_by_goal ON saving_plans(goal_id);
                CREATE TABLE saving_plan_occurrences (
                    plan_id INTEGER NOT NULL REFERENCES saving_plans(id) ON DELETE CASCADE,
                    due TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('recorded', 'pending', 'fulfilled', 'missed')),
                    txid TEXT,
                    notified INTEGER NOT NULL DEFAULT 0 CHECK (notified IN (0, 1)),
                    created_at TEXT NOT NULL,
                    settled_at TEXT,
                    PRIMARY KEY (plan_id, due),
                    CHECK ((status = 'recorded') = (txid IS NOT NULL))
                ) WITHOUT ROWID;
                CREATE INDEX saving_plan_occurrences_pending ON saving_plan_occurrences(due) WHERE status = 'pending';
                CREATE TABLE saving_plan_claims (
                    asset_id INTEGER NOT NULL,
                    txid TEXT NOT NULL,
                    plan_id INTEGER NOT NULL,
                    due TEXT NOT NULL,
                    value INTEGER NOT NULL CHECK (value > 0),
                    PRIMARY KEY (asset_id, txid),
                    FOREIGN KEY (plan_id, due) REFERENCES saving_plan_occurrences(plan_id, due) ON DELETE CASCADE
                ) WITHOUT ROWID;
                CREATE INDEX saving_plan_claims_by_occurrence ON saving_plan_claims(plan_id, due);
                """)
        }
        // Electrum sources (SPEC.md section 21). A script's status, as the server last gave it,
        // decides whether a pass reads its history again. What the server sent is kept so that
        // it is not asked for twice: raw transactions (their outputs value the inputs that spend
        // them; one row a txid, whichever source fetched it: a txid names the same bytes
        // everywhere), block headers by source and height (a source's chain; a reorg replaces
        // them), and each script's history in the server's order (what a reorg took out of a
        // block is what a new history no longer lists).
        migrator.registerMigration("v9-electrum") { db in
            try db.execute(sql: """
                ALTER TABLE derived_addresses ADD COLUMN script_status TEXT;
                CREATE TABLE chain_transactions (
                    txid TEXT PRIMARY KEY NOT NULL,
                    raw BLOB NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE block_headers (
                    source TEXT NOT NULL,
                    height INTEGER NOT NULL CHECK (height >= 0),
                    hash TEXT NOT NULL,
                    time INTEGER NOT NULL,
                    PRIMARY KEY (source, height)
                ) WITHOUT ROWID;
                CREATE TABLE script_histories (
                    source TEXT NOT NULL,
                    script TEXT NOT NULL,
                    position INTEGER NOT NULL CHECK (position >= 0),
                    txid TEXT NOT NULL,
                    height INTEGER NOT NULL CHECK (height >= -1),
                    PRIMARY KEY (source, script, position)
                ) WITHOUT ROWID;
                CREATE INDEX script_histories_by_txid ON script_histories(source, txid);
                """)
        }
        // Electrum proofs (SPEC.md section 21, issue 26): a header is kept with its 80 bytes,
        // verified (linked to a checkpoint, its work done) before it is stored; rows of v9 have
        // none (their hash and time were a server's word) and are fetched and verified again.
        // Each confirmed transaction's proof is the block it was proven in: it holds while the
        // stored header at that height has that hash.
        migrator.registerMigration("v10-electrum-proofs") { db in
            try db.execute(sql: """
                ALTER TABLE block_headers ADD COLUMN raw BLOB CHECK (raw IS NULL OR length(raw) = 80);
                CREATE TABLE transaction_proofs (
                    source TEXT NOT NULL,
                    txid TEXT NOT NULL,
                    height INTEGER NOT NULL CHECK (height > 0),
                    block_hash TEXT NOT NULL,
                    PRIMARY KEY (source, txid)
                ) WITHOUT ROWID;
                """)
        }
        // Amounts of 128 bits, the user's own units, EVM assets (Schema.version11 says how).
        migrator.registerMigration("v11-exact-amounts") { db in
            for statement in Schema.version11 { try db.execute(sql: statement) }
        }
        // What an evm source's next pass starts from (Schema.version12 says what).
        migrator.registerMigration("v12-evm") { db in
            for statement in Schema.version12 { try db.execute(sql: statement) }
        }
        return migrator
    }

    /// The identifiers of all migrations, oldest first (tests migrate step by step).
    public static var migrationIdentifiers: [String] { migrator.migrations }

    /// Migrates an existing connection up to `identifier` only (tests of upgrade paths).
    static func migrate(_ writer: any DatabaseWriter, upTo identifier: String) throws {
        try migrator.migrate(writer, upTo: identifier)
    }
}

/// The data model of SPEC.md section 3, as SQL. Amounts are INTEGER minor units, rates are
/// decimal TEXT, timestamps are ISO 8601 UTC TEXT with milliseconds (which sort correctly).
enum Schema {
    static let version1: [String] = [
        """
        CREATE TABLE assets (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            currency TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('ark', 'onchain', 'addresses', 'manual')),
            source TEXT,
            created_at TEXT NOT NULL,
            CHECK ((kind = 'manual') = (source IS NULL))
        )
        """,
        "CREATE UNIQUE INDEX assets_by_source ON assets(source, kind) WHERE source IS NOT NULL",
        """
        CREATE TABLE transactions (
            asset_id INTEGER NOT NULL REFERENCES assets(id),
            txid TEXT NOT NULL,
            amount INTEGER NOT NULL,
            type TEXT NOT NULL CHECK (type IN ('ark', 'onchain', 'lightning', 'board', 'offboard', 'exit', 'manual')),
            status TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed')),
            direction TEXT NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
            date TEXT NOT NULL,
            round INTEGER,
            board_txid TEXT,
            fee INTEGER CHECK (fee IS NULL OR fee >= 0),
            counterparty TEXT,
            note TEXT,
            first_seen_at TEXT NOT NULL,
            last_updated TEXT NOT NULL,
            rule1_applied_at TEXT,
            PRIMARY KEY (asset_id, txid)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX transactions_by_txid ON transactions(txid)",
        "CREATE INDEX transactions_by_asset_date ON transactions(asset_id, date)",
        // An asset's currency and kind are locked once it has a transaction: amounts already
        // stored would change meaning.
        """
        CREATE TRIGGER assets_lock_currency_and_kind
        BEFORE UPDATE OF currency, kind ON assets
        WHEN (NEW.currency IS NOT OLD.currency OR NEW.kind IS NOT OLD.kind)
            AND EXISTS (SELECT 1 FROM transactions WHERE asset_id = OLD.id)
        BEGIN
            SELECT RAISE(ABORT, 'the currency and kind of an asset with transactions cannot change');
        END
        """,
        """
        CREATE TABLE tags (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            color_hex TEXT CHECK (color_hex IS NULL OR color_hex GLOB '#[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]'),
            emoji TEXT,
            is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
            created_at TEXT NOT NULL
        )
        """,
        // Assignments reference the txid, not a ledger row: no refresh, status change,
        // re-creation or deletion of transactions can lose them, and imported labels can wait
        // for transactions that have not been ingested yet.
        """
        CREATE TABLE tag_assignments (
            id TEXT PRIMARY KEY NOT NULL,
            tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
            txid TEXT NOT NULL,
            assigned_at TEXT NOT NULL,
            UNIQUE (tag_id, txid)
        )
        """,
        "CREATE INDEX tag_assignments_by_txid ON tag_assignments(txid)",
        """
        CREATE TABLE ark_balances (
            source TEXT PRIMARY KEY NOT NULL,
            spendable INTEGER NOT NULL CHECK (spendable >= 0),
            pending_lightning_send INTEGER NOT NULL CHECK (pending_lightning_send >= 0),
            claimable_lightning_receive INTEGER NOT NULL CHECK (claimable_lightning_receive >= 0),
            pending_in_round INTEGER NOT NULL CHECK (pending_in_round >= 0),
            pending_exit INTEGER CHECK (pending_exit IS NULL OR pending_exit >= 0),
            pending_board INTEGER NOT NULL CHECK (pending_board >= 0),
            last_updated TEXT NOT NULL
        )
        """,
        // untrusted_pending is the mempool delta for Esplora sources and may be negative.
        """
        CREATE TABLE onchain_balances (
            source TEXT PRIMARY KEY NOT NULL,
            total INTEGER NOT NULL,
            trusted_spendable INTEGER NOT NULL,
            immature INTEGER NOT NULL CHECK (immature >= 0),
            trusted_pending INTEGER NOT NULL CHECK (trusted_pending >= 0),
            untrusted_pending INTEGER NOT NULL,
            confirmed INTEGER NOT NULL CHECK (confirmed >= 0),
            last_updated TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE vtxos (
            source TEXT NOT NULL,
            id TEXT NOT NULL,
            amount INTEGER NOT NULL CHECK (amount >= 0),
            expiry_height INTEGER NOT NULL CHECK (expiry_height >= 0),
            state TEXT NOT NULL,
            last_updated TEXT NOT NULL,
            PRIMARY KEY (source, id)
        )
        """,
        """
        CREATE TABLE utxos (
            source TEXT NOT NULL,
            outpoint TEXT NOT NULL,
            amount INTEGER NOT NULL CHECK (amount >= 0),
            confirmation_height INTEGER CHECK (confirmation_height IS NULL OR confirmation_height >= 0),
            last_updated TEXT NOT NULL,
            PRIMARY KEY (source, outpoint)
        )
        """,
        """
        CREATE TABLE ark_info (
            source TEXT PRIMARY KEY NOT NULL,
            network TEXT NOT NULL,
            server_pubkey TEXT NOT NULL,
            round_interval TEXT NOT NULL,
            vtxo_expiry_delta INTEGER NOT NULL CHECK (vtxo_expiry_delta >= 0),
            fetched_at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE chain_tips (
            source TEXT PRIMARY KEY NOT NULL,
            height INTEGER NOT NULL CHECK (height >= 0),
            fetched_at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE goals (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            currency TEXT NOT NULL,
            target INTEGER NOT NULL CHECK (target >= 0),
            deadline TEXT,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled', 'finished')),
            created_at TEXT NOT NULL,
            finished_at TEXT
        )
        """,
        """
        CREATE TABLE asset_allocations (
            asset_id INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
            amount INTEGER NOT NULL CHECK (amount >= 0),
            updated_at TEXT NOT NULL,
            PRIMARY KEY (asset_id, goal_id)
        )
        """,
        "CREATE INDEX asset_allocations_by_goal ON asset_allocations(goal_id)",
        // The source of truth for "what was allocated at time T". `reason` says who wrote the
        // row; `txid` names the transaction Rule 1 applied, at most once per (asset, txid).
        """
        CREATE TABLE allocation_history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            asset_id INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
            amount INTEGER NOT NULL CHECK (amount >= 0),
            timestamp TEXT NOT NULL,
            created_at TEXT NOT NULL,
            month_label TEXT NOT NULL,
            reason TEXT NOT NULL CHECK (reason IN ('allocate', 'rule1', 'rule1-adjust', 'cancel', 'close-goal')),
            txid TEXT
        )
        """,
        "CREATE INDEX allocation_history_by_pair ON allocation_history(asset_id, goal_id, timestamp, created_at, id)",
        "CREATE INDEX allocation_history_by_time ON allocation_history(timestamp)",
        "CREATE UNIQUE INDEX allocation_history_rule1_once ON allocation_history(asset_id, txid) WHERE reason = 'rule1'",
        """
        CREATE TRIGGER allocation_history_append_only BEFORE UPDATE ON allocation_history
        BEGIN
            SELECT RAISE(ABORT, 'allocation history is append-only');
        END
        """,
        """
        CREATE TABLE monthly_plans (
            month_label TEXT NOT NULL,
            goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
            required INTEGER NOT NULL DEFAULT 0 CHECK (required >= 0),
            custom_amount INTEGER CHECK (custom_amount IS NULL OR custom_amount >= 0),
            skipped INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
            PRIMARY KEY (month_label, goal_id)
        )
        """,
        """
        CREATE TABLE execution_records (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            month_label TEXT NOT NULL UNIQUE,
            status TEXT NOT NULL CHECK (status IN ('draft', 'executing', 'closed')),
            started_at TEXT,
            completed_at TEXT,
            can_undo_until TEXT,
            goal_ids TEXT NOT NULL DEFAULT '[]'
        )
        """,
        // At most one month executing at a time, enforced by the database itself.
        "CREATE UNIQUE INDEX execution_records_one_executing ON execution_records(status) WHERE status = 'executing'",
        // Frozen at `month start`: the plans and the allocation targets at the start (JSON).
        """
        CREATE TABLE execution_snapshots (
            record_id INTEGER PRIMARY KEY NOT NULL REFERENCES execution_records(id) ON DELETE CASCADE,
            captured_at TEXT NOT NULL,
            display_currency TEXT NOT NULL,
            goals TEXT NOT NULL,
            targets TEXT NOT NULL,
            total_planned_display INTEGER
        )
        """,
        """
        CREATE TABLE completed_executions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            record_id INTEGER NOT NULL UNIQUE REFERENCES execution_records(id),
            month_label TEXT NOT NULL,
            completed_at TEXT NOT NULL,
            goals TEXT NOT NULL,
            contributions TEXT NOT NULL,
            rates TEXT NOT NULL
        )
        """,
        """
        CREATE TRIGGER completed_executions_immutable BEFORE UPDATE ON completed_executions
        BEGIN
            SELECT RAISE(ABORT, 'a completed execution is immutable; only undo-complete may remove it');
        END
        """,
        """
        CREATE TABLE exchange_rates (
            base TEXT NOT NULL,
            quote TEXT NOT NULL,
            rate TEXT NOT NULL,
            fetched_at TEXT NOT NULL,
            provider TEXT NOT NULL,
            PRIMARY KEY (base, quote)
        )
        """,
        """
        CREATE TABLE rate_history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            base TEXT NOT NULL,
            quote TEXT NOT NULL,
            rate TEXT NOT NULL,
            fetched_at TEXT NOT NULL,
            provider TEXT NOT NULL
        )
        """,
        "CREATE INDEX rate_history_by_pair_time ON rate_history(base, quote, fetched_at)",
        """
        CREATE TRIGGER rate_history_append_only BEFORE UPDATE ON rate_history
        BEGIN
            SELECT RAISE(ABORT, 'rate history is append-only');
        END
        """,
        """
        CREATE TABLE ingest_runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            source TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
            new INTEGER NOT NULL DEFAULT 0,
            updated INTEGER NOT NULL DEFAULT 0,
            dropped INTEGER NOT NULL DEFAULT 0,
            auto_allocated INTEGER NOT NULL DEFAULT 0,
            error TEXT
        )
        """,
        "CREATE INDEX ingest_runs_by_source ON ingest_runs(source, id)",
        """
        CREATE TABLE settings (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        )
        """,
        // Bumped by every write that changes what the calculator or the views show; caches
        // compare it, and other processes notice commits through PRAGMA data_version.
        """
        CREATE TABLE change_counter (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            value INTEGER NOT NULL
        )
        """,
        "INSERT INTO change_counter (id, value) VALUES (1, 0)",
    ]
}
