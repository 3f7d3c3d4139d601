extension Schema {
    /// v4: an ingest pass that stays invisible until it is published (docs/ARCHITECTURE.md,
    /// "One ingest").
    ///
    /// A big pass (the first ingest of a long history) is written in many short transactions,
    /// so that no other writer waits for it for seconds. Its rows must still appear to readers
    /// all at once: each row it stages carries the pass's id in `pass`, and the views
    /// `transactions` and `assets` leave out the rows of every pass still listed in
    /// `ingest_passes`. Publishing is deleting the pass's row there: one short transaction that
    /// makes everything it staged visible at once. A pass that dies leaves its row behind, so
    /// its staged rows stay invisible until the next pass of the source removes them.
    ///
    /// Readers keep reading `transactions` and `assets` as before; writers write the tables
    /// behind them, `ledger` and `asset_rows`. The ledger is rebuilt on the way, for the cost
    /// of a row written (a first ingest writes a million):
    /// - a plain rowid table, unique on (txid, asset_id), instead of a WITHOUT ROWID table keyed
    ///   by (asset_id, txid) with a second index on txid. Rows are appended where the last one
    ///   went, so a big pass never goes back to pages it wrote (SQLite's page cache is 2 MiB;
    ///   a million rows are 440 MB); only the small index entries land all over the key range.
    ///   Lookups by txid (tags, `tx show`) use the unique index, so the txid index goes: each
    ///   row written updates three b-trees, two of them small, instead of three large ones;
    /// - CHECK constraints that compare with `=` rather than `IN (...)`: SQLite builds a
    ///   temporary table for a list of more than two constants each time an insert runs, which
    ///   cost a row about as much as the insert itself.
    static let version4: [String] = [
        // The trigger names `transactions`, which is about to become a view.
        "DROP TRIGGER assets_lock_currency_and_kind",
        // Foreign keys of allocations and history follow the rename (SQLite >= 3.26 rewrites them).
        "ALTER TABLE assets RENAME TO asset_rows",
        "ALTER TABLE asset_rows ADD COLUMN pass INTEGER",
        """
        CREATE TABLE ledger (
            txid TEXT NOT NULL,
            asset_id INTEGER NOT NULL REFERENCES asset_rows(id),
            amount INTEGER NOT NULL,
            type TEXT NOT NULL CHECK (type = 'ark' OR type = 'onchain' OR type = 'lightning' OR type = 'board'
                OR type = 'offboard' OR type = 'exit' OR type = 'manual'),
            status TEXT NOT NULL CHECK (status = 'pending' OR status = 'confirmed' OR status = 'failed'),
            direction TEXT NOT NULL CHECK (direction = 'incoming' OR direction = 'outgoing'),
            date TEXT NOT NULL,
            round INTEGER,
            board_txid TEXT,
            fee INTEGER CHECK (fee IS NULL OR fee >= 0),
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
        INSERT INTO ledger (txid, asset_id, amount, type, status, direction, date, round, board_txid, fee, counterparty, note,
                            first_seen_at, last_updated, rule1_applied_at)
        SELECT txid, asset_id, amount, type, status, direction, date, round, board_txid, fee, counterparty, note,
               first_seen_at, last_updated, rule1_applied_at
        FROM transactions
        """,
        "DROP TABLE transactions",
        "CREATE INDEX ledger_by_asset_date ON ledger(asset_id, date)",
        // One row per pass in progress; `source` is unique: one pass of a source at a time, in
        // every process. `owner_pid` and `owner_started` (the kernel's start time of that
        // process) tell whether the pass's process is still alive.
        """
        CREATE TABLE ingest_passes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            source TEXT NOT NULL UNIQUE,
            owner_pid INTEGER NOT NULL,
            owner_started INTEGER NOT NULL,
            started_at TEXT NOT NULL
        )
        """,
        // Changes to rows that already exist, staged by a big pass and applied when it publishes.
        """
        CREATE TABLE staged_updates (
            pass INTEGER NOT NULL,
            asset_id INTEGER NOT NULL,
            txid TEXT NOT NULL,
            amount INTEGER NOT NULL,
            type TEXT NOT NULL,
            status TEXT NOT NULL,
            direction TEXT NOT NULL,
            date TEXT NOT NULL,
            round INTEGER,
            board_txid TEXT,
            fee INTEGER,
            counterparty TEXT,
            PRIMARY KEY (pass, asset_id, txid)
        ) WITHOUT ROWID
        """,
        // What a source last sent, by digest (of the whole body, and of its first 64 KiB): an
        // unchanged barkd history is recognised without decoding it, or even keeping it.
        """
        CREATE TABLE source_digests (
            source TEXT NOT NULL,
            part TEXT NOT NULL,
            digest TEXT NOT NULL,
            head_digest TEXT NOT NULL,
            items INTEGER NOT NULL,
            PRIMARY KEY (source, part)
        )
        """,
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
        // As before: an asset's currency and kind are locked once it has a transaction (staged
        // ones count: they are about to be published).
        """
        CREATE TRIGGER asset_rows_lock_currency_and_kind
        BEFORE UPDATE OF currency, kind ON asset_rows
        WHEN (NEW.currency IS NOT OLD.currency OR NEW.kind IS NOT OLD.kind)
            AND EXISTS (SELECT 1 FROM ledger WHERE asset_id = OLD.id)
        BEGIN
            SELECT RAISE(ABORT, 'the currency and kind of an asset with transactions cannot change');
        END
        """,
    ]
}
