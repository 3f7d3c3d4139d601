import Foundation
import Testing
import TestSupport

/// `walletwatch check` against databases broken by hand: each case takes a backup of a
/// database written through the command line, breaks one invariant in it with raw SQL (through
/// the sqlite3 tool, dropping a trigger or an index where the database would refuse the change),
/// and expects exactly the checks that must see it.
@Suite("CLI: check reports each broken invariant")
struct CheckCLITests {
    /// One way to break a database: the SQL, and what `check` must say.
    struct Breakage: Sendable, CustomTestStringConvertible {
        let name: String
        /// Run by sqlite3 on the copy; `{rule1}` stands for the txid Rule 1 allocated.
        let sql: String
        let checks: Set<String>
        /// Words the finding of the first check must contain.
        let detail: [String]
        var testDescription: String { name }
    }

    static let breakages: [Breakage] = [
        Breakage(name: "a tag assignment whose tag is gone",
                 sql: """
                     INSERT INTO tag_assignments (id, tag_id, txid, assigned_at) VALUES
                     ('00000000-0000-0000-0000-0000000000aa', '00000000-0000-0000-0000-0000000000bb', 'manual:x', '2026-11-01T00:00:00.000Z');
                     """,
                 checks: ["foreign_keys"], detail: ["tag_assignments row", "tags row that does not exist"]),
        Breakage(name: "the append-only trigger of the allocation history dropped",
                 sql: "DROP TRIGGER allocation_history_append_only;",
                 checks: ["schema"], detail: ["trigger allocation_history_append_only is missing"]),
        Breakage(name: "a current allocation that its history does not end with",
                 sql: """
                     UPDATE asset_allocations SET amount = amount + 1
                     WHERE asset_id = (SELECT id FROM assets WHERE name = 'Cash') AND goal_id = (SELECT id FROM goals WHERE name = 'Trip');
                     """,
                 checks: ["allocation_history"], detail: ["asset 'Cash' for goal 'Trip'", "says 400.00 USD", "is 400.01 USD"]),
        Breakage(name: "a manual withdrawal that overdraws the asset at its date",
                 sql: """
                     INSERT INTO ledger (asset_id, txid, amount, type, status, direction, date, first_seen_at, last_updated)
                     SELECT id, 'manual:overdrawn', -200000, 'manual', 'confirmed', 'outgoing', '2026-10-16T00:00:00.000Z',
                            '2026-11-01T08:00:00.000Z', '2026-11-01T08:00:00.000Z' FROM assets WHERE name = 'Cash';
                     """,
                 checks: ["manual_balance"], detail: ["'Cash'", "-1000.00 USD", "2026-10-16T00:00:00.000Z", "manual:overdrawn"]),
        Breakage(name: "a Rule 1 allocation its transaction does not know of",
                 sql: "UPDATE ledger SET rule1_applied_at = NULL WHERE txid = '{rule1}';",
                 checks: ["rule1_once"], detail: ["{rule1}", "'Stack'", "could apply it again"]),
        Breakage(name: "Rule 1 applied twice to one transaction (its unique index dropped to let it in)",
                 sql: """
                     DROP INDEX allocation_history_rule1_once;
                     INSERT INTO allocation_history (asset_id, goal_id, amount, timestamp, created_at, month_label, reason, txid)
                     SELECT asset_id, goal_id, amount, '2026-11-20T00:00:00.000Z', '2026-11-20T00:00:00.000Z', month_label, 'rule1', txid
                     FROM allocation_history WHERE reason = 'rule1';
                     """,
                 checks: ["rule1_once", "schema"], detail: ["{rule1}", "2 times"]),
        Breakage(name: "a completed month's frozen rate changed (its immutability trigger dropped, then put back)",
                 sql: """
                     DROP TRIGGER completed_executions_immutable;
                     UPDATE completed_executions SET rates = replace(rates, '65000', '65001');
                     {trigger}
                     """,
                 checks: ["completed_months"], detail: ["2026-11", "changed after it was completed"]),
        Breakage(name: "a completed month's digest removed",
                 sql: "DELETE FROM completed_execution_digests;",
                 checks: ["completed_months"], detail: ["2026-11", "no stored digest"]),
        Breakage(name: "an ingest pass left by a process that is gone, with a row it staged",
                 sql: """
                     INSERT INTO ingest_passes (id, source, owner_pid, owner_started, started_at)
                     VALUES (4242, 'ark', 2147483646, 1, '2026-11-21T11:59:00.000Z');
                     INSERT INTO ledger (asset_id, txid, amount, type, status, direction, date, first_seen_at, last_updated, pass)
                     SELECT id, 'manual:staged-by-a-dead-pass', 1000, 'manual', 'confirmed', 'incoming', '2026-11-21T11:59:00.000Z',
                            '2026-11-21T11:59:00.000Z', '2026-11-21T11:59:00.000Z', 4242 FROM assets WHERE name = 'Cash';
                     """,
                 checks: ["ingest_passes"], detail: ["source 'ark'", "pid 2147483646", "no longer running", "left 1 staged row(s)",
                                                     "run `walletwatch ingest --source ark`"]),
        Breakage(name: "an ingest pass its process gave up without room to clean up (a full disk), of a source whose name needs quoting",
                 sql: """
                     INSERT INTO ingest_passes (id, source, owner_pid, owner_started, started_at)
                     VALUES (4243, 'my wallet', 0, 0, '2026-11-21T11:59:00.000Z');
                     INSERT INTO ledger (asset_id, txid, amount, type, status, direction, date, first_seen_at, last_updated, pass)
                     SELECT id, 'manual:staged-by-a-given-up-pass', 1000, 'manual', 'confirmed', 'incoming', '2026-11-21T11:59:00.000Z',
                            '2026-11-21T11:59:00.000Z', '2026-11-21T11:59:00.000Z', 4243 FROM assets WHERE name = 'Cash';
                     """,
                 checks: ["ingest_passes"], detail: ["source 'my wallet'", "was given up", "left 1 staged row(s)",
                                                     "run `walletwatch ingest --source 'my wallet'`"]),
        Breakage(name: "a page of an index overwritten with zeros",
                 sql: "", checks: ["integrity"], detail: ["Page", "btreeInitPage"]),
    ]

    @Test("a database written through the CLI passes; every broken copy fails (exit 1) with exactly the checks that see it")
    func breakages() async throws {
        let ledger = try await LedgerFolder()
        let pristine = ledger.folder.file("pristine.sqlite")
        let backup = try await ledger.cli().run("backup", pristine)
        #expect(backup.status == 0, "\(backup.stderr)")

        let sound = try await ledger.cli().run("--db", pristine, "check", "--json")
        #expect(sound.status == 0, "\(sound.stdout) \(sound.stderr)")
        #expect(sound.stdout.contains("\"ok\" : true") || sound.object?["ok"] as? Bool == true)
        #expect((sound.object?["findings"] as? [Any])?.isEmpty == true)
        #expect(sound.stderr.isEmpty)
        let text = try await ledger.cli().run("check")
        #expect(text.status == 0 && text.stdout.hasPrefix("ok: integrity, foreign_keys, schema"), "\(text.stdout)")

        let rule1 = try await ledger.rule1Txid()
        #expect(rule1.hasPrefix("manual:"))
        let trigger = try await sqlite(pristine, "SELECT sql FROM sqlite_master WHERE name = 'completed_executions_immutable'")
        #expect(trigger.hasPrefix("CREATE TRIGGER"))

        for breakage in Self.breakages {
            let copy = ledger.folder.file("broken.sqlite")
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: pristine, toPath: copy)
            if breakage.checks == ["integrity"] {
                try await zeroRootPage(of: "rate_history_by_pair_time", in: copy)
            } else {
                let sql = breakage.sql.replacingOccurrences(of: "{rule1}", with: rule1).replacingOccurrences(of: "{trigger}", with: trigger + ";")
                let result = try await ProcessRunner.run("/usr/bin/sqlite3", ["-bail", copy, sql], environment: [:], currentDirectory: "/")
                #expect(result.status == 0, "\(breakage.name): sqlite3 said \(result.stderr)")
            }
            let check = try await ledger.cli().run("--db", copy, "check", "--json")
            #expect(check.status == 1, "\(breakage.name): \(check.stdout) \(check.stderr)")
            let document = try #require(check.object, "\(breakage.name): \(check.stdout)")
            #expect(document["ok"] as? Bool == false)
            let findings = try #require(document["findings"] as? [[String: String]], "\(breakage.name)")
            #expect(Set(findings.compactMap { $0["check"] }) == breakage.checks, "\(breakage.name): \(findings)")
            #expect(findings.allSatisfy { Set($0.keys) == ["check", "detail"] })
            let first = try #require(findings.first { $0["check"] == breakage.checks.sorted().first { $0 != "schema" } ?? "schema" })
            for word in breakage.detail.map({ $0.replacingOccurrences(of: "{rule1}", with: rule1) }) {
                #expect(first["detail"]?.contains(word) == true, "\(breakage.name): '\(word)' not in \(first)")
            }
            // One error line on stderr naming the database and what was found.
            let lines = check.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: the database \(copy) has \(findings.count) problem(s)"), "\(check.stderr)")
            // The text form: one line a finding, each naming its check.
            let plain = try await ledger.cli().run("--db", copy, "check")
            #expect(plain.status == 1)
            #expect(plain.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) } == findings.compactMap { $0["check"] })
        }
        // The live database was never touched.
        #expect(try await ledger.cli().run("check").status == 0)
    }

    /// Overwrites the root page of an index with zeros: a corruption SQLite's integrity check
    /// finds, in a part of the file that the other checks do not read.
    func zeroRootPage(of index: String, in database: String) async throws {
        let pageSize = try #require(Int(try await sqlite(database, "PRAGMA page_size")))
        let root = try #require(Int(try await sqlite(database, "SELECT rootpage FROM sqlite_master WHERE name = '\(index)'")))
        let handle = try #require(FileHandle(forUpdatingAtPath: database))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        handle.write(Data(count: pageSize))
        try handle.close()
    }
}
