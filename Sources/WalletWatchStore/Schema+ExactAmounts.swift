extension Schema {
    /// v11: amounts of 128 bits, units of the user's own, and EVM assets (SPEC.md sections 25, 26).
    ///
    /// An 18-decimal token counts in 10^-18 units: 64 bits end at about 9.22 ETH. Amounts keep
    /// the INTEGER form when they fit in 64 bits and take the TEXT of their exact digits beyond
    /// (``StoredAmount`` says why). A column declared INTEGER turns such text into a lossy REAL,
    /// so every column that can hold an amount of any currency is rebuilt without a declared
    /// type (BLOB affinity: values are kept as written), with a CHECK that admits one form per
    /// value and keeps the old rule on its sign. The rows are copied as they are: every stored
    /// figure is an INTEGER before and after. Bitcoin-only tables (balances, VTXOs, UTXOs, an
    /// HD wallet's addresses, reserved receipts) keep INTEGER: 21 million BTC fit.
    ///
    /// On the way: `asset_rows` takes the kind `evm` (the native coin and each token of an EVM
    /// source: several assets of one source, told apart by currency, so the unique key becomes
    /// (source, kind, currency)); `ledger` takes the type `adjustment`; `asset_balances` keeps a
    /// balance per asset for such sources; `currencies` holds the user's units (`currency add`).
    ///
    /// The views and the trigger that name rebuilt tables are dropped first and made again last:
    /// SQLite's RENAME checks every view and trigger of the schema.
    static let version11: [String] = [
        "DROP VIEW assets",
        "DROP VIEW transactions",
        "DROP TRIGGER asset_rows_lock_currency_and_kind",
        """
        CREATE TABLE asset_rows_v11 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            currency TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('ark', 'onchain', 'addresses', 'manual', 'evm')),
            source TEXT,
            created_at TEXT NOT NULL,
            pass INTEGER,
            CHECK ((kind = 'manual') = (source IS NULL))
        )
        """,
        "INSERT INTO asset_rows_v11 (id, name, currency, kind, source, created_at, pass) SELECT id, name, currency, kind, source, created_at, pass FROM asset_rows",
        """
        CREATE TABLE goals_v11 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            currency TEXT NOT NULL,
            target NOT NULL CHECK (\(amountCheck("target", .nonNegative))),
            deadline TEXT,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled', 'finished')),
            created_at TEXT NOT NULL,
            finished_at TEXT
        )
        """,
        "INSERT INTO goals_v11 (id, name, currency, target, deadline, status, created_at, finished_at) SELECT id, name, currency, target, deadline, status, created_at, finished_at FROM goals",
        """
        CREATE TABLE ledger_v11 (
            txid TEXT NOT NULL,
            asset_id INTEGER NOT NULL REFERENCES asset_rows(id),
            amount NOT NULL CHECK (\(amountCheck("amount", .any))),
            type TEXT NOT NULL CHECK (type = 'ark' OR type = 'onchain' OR type = 'lightning' OR type = 'board'
                OR type = 'offboard' OR type = 'exit' OR type = 'manual' OR type = 'adjustment'),
            status TEXT NOT NULL CHECK (status = 'pending' OR status = 'confirmed' OR status = 'failed'),
            direction TEXT NOT NULL CHECK (direction = 'incoming' OR direction = 'outgoing'),
            date TEXT NOT NULL,
            round INTEGER,
            board_txid TEXT,
            fee CHECK (fee IS NULL OR \(amountCheck("fee", .nonNegative))),
            counterparty TEXT,
            note TEXT,
            first_seen_at TEXT NOT NULL,
            last_updated TEXT NOT NULL,
            rule1_applied_at TEXT,
            pass INTEGER,
            UNIQUE (txid, asset_id)
        )
        """,
        """
        INSERT INTO ledger_v11 (txid, asset_id, amount, type, status, direction, date, round, board_txid, fee, counterparty, note,
                                first_seen_at, last_updated, rule1_applied_at, pass)
        SELECT txid, asset_id, amount, type, status, direction, date, round, board_txid, fee, counterparty, note,
               first_seen_at, last_updated, rule1_applied_at, pass
        FROM ledger ORDER BY rowid
        """,
        """
        CREATE TABLE staged_updates_v11 (
            pass INTEGER NOT NULL,
            asset_id INTEGER NOT NULL,
            txid TEXT NOT NULL,
            amount NOT NULL CHECK (\(amountCheck("amount", .any))),
            type TEXT NOT NULL,
            status TEXT NOT NULL,
            direction TEXT NOT NULL,
            date TEXT NOT NULL,
            round INTEGER,
            board_txid TEXT,
            fee CHECK (fee IS NULL OR \(amountCheck("fee", .nonNegative))),
            counterparty TEXT,
            PRIMARY KEY (pass, asset_id, txid)
        ) WITHOUT ROWID
        """,
        "INSERT INTO staged_updates_v11 SELECT pass, asset_id, txid, amount, type, status, direction, date, round, board_txid, fee, counterparty FROM staged_updates",
        """
        CREATE TABLE asset_allocations_v11 (
            asset_id INTEGER NOT NULL REFERENCES asset_rows(id) ON DELETE CASCADE,
            goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
            amount NOT NULL CHECK (\(amountCheck("amount", .nonNegative))),
            updated_at TEXT NOT NULL,
            PRIMARY KEY (asset_id, goal_id)
        )
        """,
        "INSERT INTO asset_allocations_v11 (asset_id, goal_id, amount, updated_at) SELECT asset_id, goal_id, amount, updated_at FROM asset_allocations",
        """
        CREATE TABLE allocation_history_v11 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            asset_id INTEGER NOT NULL REFERENCES asset_rows(id) ON DELETE CASCADE,
            goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
            amount NOT NULL CHECK (\(amountCheck("amount", .nonNegative))),
            timestamp TEXT NOT NULL,
            created_at TEXT NOT NULL,
            month_label TEXT NOT NULL,
            reason TEXT NOT NULL CHECK (reason IN ('allocate', 'rule1', 'rule1b', 'rule1-adjust', 'cancel', 'close-goal')),
            txid TEXT
        )
        """,
        """
        INSERT INTO allocation_history_v11 (id, asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid)
        SELECT id, asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid FROM allocation_history
        """,
        """
        CREATE TABLE monthly_plans_v11 (
            month_label TEXT NOT NULL,
            goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
            required NOT NULL DEFAULT 0 CHECK (\(amountCheck("required", .nonNegative))),
            custom_amount CHECK (custom_amount IS NULL OR \(amountCheck("custom_amount", .nonNegative))),
            skipped INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
            PRIMARY KEY (month_label, goal_id)
        )
        """,
        "INSERT INTO monthly_plans_v11 (month_label, goal_id, required, custom_amount, skipped) SELECT month_label, goal_id, required, custom_amount, skipped FROM monthly_plans",
        """
        CREATE TABLE execution_snapshots_v11 (
            record_id INTEGER PRIMARY KEY NOT NULL REFERENCES execution_records(id) ON DELETE CASCADE,
            captured_at TEXT NOT NULL,
            display_currency TEXT NOT NULL,
            goals TEXT NOT NULL,
            targets TEXT NOT NULL,
            total_planned_display CHECK (total_planned_display IS NULL OR \(amountCheck("total_planned_display", .any)))
        )
        """,
        """
        INSERT INTO execution_snapshots_v11 (record_id, captured_at, display_currency, goals, targets, total_planned_display)
        SELECT record_id, captured_at, display_currency, goals, targets, total_planned_display FROM execution_snapshots
        """,
        """
        CREATE TABLE saving_plans_v11 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            goal_id INTEGER NOT NULL REFERENCES goals(id) ON DELETE CASCADE,
            asset_id INTEGER NOT NULL REFERENCES asset_rows(id) ON DELETE CASCADE,
            amount NOT NULL CHECK (\(amountCheck("amount", .positive))),
            currency TEXT NOT NULL,
            every TEXT NOT NULL CHECK (every IN ('day', 'week', 'month')),
            start TEXT NOT NULL,
            method TEXT NOT NULL CHECK (method IN ('reminder', 'automatic')),
            created_at TEXT NOT NULL
        )
        """,
        """
        INSERT INTO saving_plans_v11 (id, name, goal_id, asset_id, amount, currency, every, start, method, created_at)
        SELECT id, name, goal_id, asset_id, amount, currency, every, start, method, created_at FROM saving_plans
        """,
        """
        CREATE TABLE saving_plan_claims_v11 (
            asset_id INTEGER NOT NULL,
            txid TEXT NOT NULL,
            plan_id INTEGER NOT NULL,
            due TEXT NOT NULL,
            value NOT NULL CHECK (\(amountCheck("value", .positive))),
            PRIMARY KEY (asset_id, txid),
            FOREIGN KEY (plan_id, due) REFERENCES saving_plan_occurrences(plan_id, due) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
        "INSERT INTO saving_plan_claims_v11 (asset_id, txid, plan_id, due, value) SELECT asset_id, txid, plan_id, due, value FROM saving_plan_claims",
    ] + rebuiltTables.flatMap { table, autoincrement in
        // Ids of deleted rows (a deleted goal's) are not given out again: the new table takes
        // the old one's sequence. Then the old table goes and the new one takes its name.
        (autoincrement ? [
            "DELETE FROM sqlite_sequence WHERE name = '\(table)_v11'",
            "INSERT INTO sqlite_sequence (name, seq) SELECT '\(table)_v11', seq FROM sqlite_sequence WHERE name = '\(table)'",
        ] : []) + [
            "DROP TABLE \(table)",
            "ALTER TABLE \(table)_v11 RENAME TO \(table)",
        ]
    } + [
        "CREATE UNIQUE INDEX assets_by_source ON asset_rows(source, kind, currency) WHERE source IS NOT NULL",
        "CREATE INDEX ledger_by_asset_date ON ledger(asset_id, date)",
        "CREATE INDEX asset_allocations_by_goal ON asset_allocations(goal_id)",
        "CREATE INDEX allocation_history_by_pair ON allocation_history(asset_id, goal_id, timestamp, created_at, id)",
        "CREATE INDEX allocation_history_by_time ON allocation_history(timestamp)",
        "CREATE UNIQUE INDEX allocation_history_rule1_once ON allocation_history(asset_id, txid) WHERE reason = 'rule1'",
        "CREATE UNIQUE INDEX allocation_history_rule1b_once ON allocation_history(asset_id, goal_id, txid) WHERE reason = 'rule1b'",
        """
        CREATE TRIGGER allocation_history_append_only BEFORE UPDATE ON allocation_history
        BEGIN
            SELECT RAISE(ABORT, 'allocation history is append-only');
        END
        """,
        "CREATE INDEX saving_plans_by_asset ON saving_plans(asset_id)",
        "CREATE INDEX saving_plans_by_goal ON saving_plans(goal_id)",
        "CREATE INDEX saving_plan_claims_by_occurrence ON saving_plan_claims(plan_id, due)",
        """
        CREATE VIEW assets AS
        SELECT id, name, currency, kind, source, created_at FROM asset_rows
        WHERE pass IS NULL OR pass NOT IN (SELECT id FROM ingest_passes)
        """,
        """
        CREATE VIEW transactions AS
        SELECT asset_id, txid, amount, type, status, direction, date, round, board_txid, fee, counterparty, note,
               first_seen_at, last_updated, rule1_applied_at
        FROM ledger
        WHERE pass IS NULL OR pass NOT IN (SELECT id FROM ingest_passes)
        """,
        """
        CREATE TRIGGER asset_rows_lock_currency_and_kind
        BEFORE UPDATE OF currency, kind ON asset_rows
        WHEN (NEW.currency IS NOT OLD.currency OR NEW.kind IS NOT OLD.kind)
            AND EXISTS (SELECT 1 FROM ledger WHERE asset_id = OLD.id)
        BEGIN
            SELECT RAISE(ABORT, 'the currency and kind of an asset with transactions cannot change');
        END
        """,
        // The balance of an asset whose source reports one per asset (an EVM source's coin and
        // each token) rather than one per source (barkd's, an on-chain wallet's): counted at the
        // source's confirmation depth, pending the rest.
        """
        CREATE TABLE asset_balances (
            asset_id INTEGER PRIMARY KEY NOT NULL REFERENCES asset_rows(id) ON DELETE CASCADE,
            counted NOT NULL CHECK (\(amountCheck("counted", .nonNegative))),
            pending NOT NULL CHECK (\(amountCheck("pending", .any))),
            last_updated TEXT NOT NULL
        )
        """,
        // The user's own units (SPEC.md section 25): ISO money and the built-in coins are
        // code, not rows. A code in use by an asset, a goal, a plan or a rate is not removed.
        """
        CREATE TABLE currencies (
            code TEXT PRIMARY KEY NOT NULL CHECK (length(code) BETWEEN 2 AND 10 AND code NOT GLOB '*[^A-Z0-9.]*'),
            decimals INTEGER NOT NULL CHECK (decimals BETWEEN 0 AND 18),
            coingecko_id TEXT,
            name TEXT,
            created_at TEXT NOT NULL
        ) WITHOUT ROWID
        """,
    ]

    /// The tables v11 rebuilds, and whether each has an AUTOINCREMENT sequence to carry over.
    private static let rebuiltTables: [(String, Bool)] = [
        ("asset_rows", true), ("goals", true), ("ledger", false), ("staged_updates", false), ("asset_allocations", false),
        ("allocation_history", true), ("monthly_plans", false), ("execution_snapshots", false), ("saving_plans", true),
        ("saving_plan_claims", false),
    ]

    /// The sign an amount column allows.
    enum AmountSign {
        case any, nonNegative, positive
    }

    /// The CHECK of a column holding a ``StoredAmount``: an INTEGER (with the sign rule), or
    /// the canonical TEXT of a value beyond 64 bits: digits without leading zeros, an optional
    /// minus, at most 39 digits, and above 9223372036854775807 (below -9223372036854775808),
    /// so no value has two forms. Part of migration v11: never edit it.
    static func amountCheck(_ column: String, _ sign: AmountSign) -> String {
        let integer = switch sign {
        case .any: "1"
        case .nonNegative: "\(column) >= 0"
        case .positive: "\(column) > 0"
        }
        let positiveText = """
            (\(column) GLOB '[1-9]*' AND \(column) NOT GLOB '*[^0-9]*' AND length(\(column)) <= 39 \
            AND (length(\(column)) > 19 OR (length(\(column)) = 19 AND \(column) > '9223372036854775807')))
            """
        let negativeText = """
            (\(column) GLOB '-[1-9]*' AND substr(\(column), 2) NOT GLOB '*[^0-9]*' AND length(\(column)) <= 40 \
            AND (length(\(column)) > 20 OR (length(\(column)) = 20 AND substr(\(column), 2) > '9223372036854775808')))
            """
        let text = sign == .any ? "\(positiveText) OR \(negativeText)" : positiveText
        return "CASE typeof(\(column)) WHEN 'integer' THEN \(integer) WHEN 'text' THEN \(text) ELSE 0 END"
    }
}
