import Foundation
import Testing
import TestSupport
import WalletWatchSim

@Suite("CLI: backup, and the daemon's backups")
struct BackupCLITests {
    static let tables = ["assets", "transactions", "goals", "asset_allocations", "allocation_history", "monthly_plans", "execution_records",
                         "execution_snapshots", "completed_executions", "completed_execution_digests", "rate_history", "exchange_rates", "settings"]

    func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    @Test("without PATH: a timestamped copy in backups/ beside the database, private, checked, one file, with every row")
    func intoFolder() async throws {
        let ledger = try await LedgerFolder()
        let result = try await ledger.cli("2026-12-01T10:00:00Z").run("backup", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(result.object)
        let path = ledger.folder.file("backups/walletwatch-20261201T100000.000Z.sqlite")
        #expect(document["path"] as? String == path)
        #expect(document["integrity"] as? String == "ok")
        #expect(document["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        #expect(document["removed"] as? [String] == [])
        #expect(try mode(path) == 0o600)
        #expect(try mode(ledger.folder.file("backups")) == 0o700)
        // One file: no WAL to carry along, and nothing half-written left beside it.
        #expect(try await sqlite(path, "PRAGMA journal_mode") == "delete")
        #expect(try FileManager.default.contentsOfDirectory(atPath: ledger.folder.file("backups")) == ["walletwatch-20261201T100000.000Z.sqlite"])
        for table in Self.tables {
            let live = try await sqlite(ledger.database, "SELECT COUNT(*) FROM \(table)")
            #expect(try await sqlite(path, "SELECT COUNT(*) FROM \(table)") == live, "\(table)")
            #expect(live != "0", "\(table) should have rows to compare")
        }
        #expect(try await sqlite(path, "SELECT group_concat(amount) FROM transactions ORDER BY txid")
                == (try await sqlite(ledger.database, "SELECT group_concat(amount) FROM transactions ORDER BY txid")))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let check = try await ledger.cli().run("--db", path, "check")
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "check changed the backup")
        #expect(try FileManager.default.contentsOfDirectory(atPath: ledger.folder.file("backups")) == ["walletwatch-20261201T100000.000Z.sqlite"])
        let text = try await ledger.cli("2026-12-01T10:00:01Z").run("backup")
        #expect(text.stdout == "backed up to \(ledger.folder.file("backups/walletwatch-20261201T100001.000Z.sqlite")) (\(document["bytes"]!) bytes, integrity ok)\n")
    }

    @Test("the folder keeps the newest [backup] keep; files that are not backups stay; the same instant twice gets the next millisecond")
    func keep() async throws {
        let ledger = try await LedgerFolder(extraConfig: "[backup]\nfolder = \"saved\"\nkeep = 2\n")
        let saved = ledger.folder.file("saved")
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        ledger.folder.write("saved/notes.txt", "not a backup")
        ledger.folder.write("saved/walletwatch-old.sqlite", "not one of walletwatch's names")
        var made: [String] = []
        for now in ["2026-12-01T10:00:00Z", "2026-12-02T10:00:00Z", "2026-12-02T10:00:00Z"] {
            let result = try await ledger.cli(now).run("backup", "--json")
            #expect(result.status == 0, "\(result.stderr)")
            made.append(try #require(result.object?["path"] as? String))
            if made.count == 3 { #expect(result.object?["removed"] as? [String] == [made[0]]) }
        }
        #expect(made.map { ($0 as NSString).lastPathComponent } == ["walletwatch-20261201T100000.000Z.sqlite", "walletwatch-20261202T100000.000Z.sqlite",
                                                                   "walletwatch-20261202T100000.001Z.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: saved).sorted()
                == ["notes.txt", "walletwatch-20261202T100000.000Z.sqlite", "walletwatch-20261202T100000.001Z.sqlite", "walletwatch-old.sqlite"])
    }

    /// A database of about 150 MB while the killed backup runs, so that the kill lands while the
    /// copy is being written: the backup is killed (SIGKILL, for real) once its unfinished copy
    /// holds 4 MiB. Only that backup needs the bulk: the finished backups before and after it
    /// are of the ledger without it (each of 150 MB was a copy and an integrity check of
    /// 150 MB), which changes nothing of what the folder is checked for.
    @Test("a backup killed midway leaves an unfinished copy that the next backup removes; keep counts only finished backups")
    func killedMidway() async throws {
        let ledger = try await LedgerFolder(extraConfig: "[backup]\nkeep = 2\n")
        let backups = ledger.folder.file("backups")
        #expect(try await ledger.cli("2026-12-01T10:00:00Z").run("backup").status == 0)
        _ = try await sqlite(ledger.database, """
            CREATE TABLE ballast (b BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150) INSERT INTO ballast SELECT randomblob(1048576) FROM n;
            """)

        let killedAt = "2026-12-02T10:00:00Z"
        let partial = ledger.folder.file("backups/walletwatch-20261202T100000.000Z.sqlite.partial")
        let cli = ledger.cli(killedAt)
        let process = try BackgroundProcess(cli.binary, ["backup"], environment: cli.environment, currentDirectory: cli.folder)
        var killed = false
        let deadline = ContinuousClock.now + .seconds(120)
        while process.isRunning && ContinuousClock.now < deadline {
            if ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0) > 4 << 20 {
                process.send(SIGKILL)
                killed = true
                break
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let status = await process.exitStatus(within: .seconds(30))
        try #require(killed && status == SIGKILL, "the backup finished before it could be killed midway (\(String(describing: status)))")
        let left = try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
        #expect(left.contains("walletwatch-20261202T100000.000Z.sqlite.partial"), "\(left)")
        #expect(!left.contains("walletwatch-20261202T100000.000Z.sqlite"))
        _ = try await sqlite(ledger.database, "DROP TABLE ballast; VACUUM;")

        // The next backup removes what the killed one left; `keep` counts finished backups only.
        let next = try await ledger.cli("2026-12-03T10:00:00Z").run("backup", "--json")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.object?["removed"] as? [String] == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
                == ["walletwatch-20261201T100000.000Z.sqlite", "walletwatch-20261203T100000.000Z.sqlite"])
        let third = try await ledger.cli("2026-12-04T10:00:00Z").run("backup", "--json")
        #expect(third.object?["removed"] as? [String] == [ledger.folder.file("backups/walletwatch-20261201T100000.000Z.sqlite")], "\(third.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
                == ["walletwatch-20261203T100000.000Z.sqlite", "walletwatch-20261204T100000.000Z.sqlite"])
    }

    /// A backup still at work holds its folder's lock shared, as every backup does while it
    /// writes: here the test process holds it, beside a copy "being written".
    @Test("the unfinished copy of a backup that is still running is left alone; files that are not a backup's stay")
    func runningBackupUntouched() async throws {
        let ledger = try await LedgerFolder()
        let backups = ledger.folder.file("backups")
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let partial = ledger.folder.write("backups/walletwatch-20261130T100000.000Z.sqlite.partial", "being written")
        ledger.folder.write("backups/walletwatch-20261130T100000.000Z.sqlite.partial-journal", "its journal")
        ledger.folder.write("backups/notes.txt.partial", "not a backup's")
        let running = open(backups, O_RDONLY | O_DIRECTORY)
        #expect(flock(running, LOCK_SH) == 0)
        #expect(try await ledger.cli("2026-12-01T10:00:00Z").run("backup").status == 0)
        #expect(FileManager.default.fileExists(atPath: partial) && FileManager.default.fileExists(atPath: partial + "-journal"),
                "a running backup's copy must not be taken for a leftover")
        close(running)
        #expect(try await ledger.cli("2026-12-02T10:00:00Z").run("backup").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
                == ["notes.txt.partial", "walletwatch-20261201T100000.000Z.sqlite", "walletwatch-20261202T100000.000Z.sqlite"])
    }

    @Test("PATH: an existing file is refused without --replace (exit 65), the live database always; a folder gets a timestamped name")
    func paths() async throws {
        let ledger = try await LedgerFolder()
        let target = ledger.folder.write("taken.sqlite", "precious")
        let refused = try await ledger.cli().run("backup", target)
        #expect(refused.status == 65)
        #expect(refused.stderr == "error: \(target) already exists; name another file, or pass --replace to overwrite it\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
        let replaced = try await ledger.cli().run("backup", target, "--replace", "--json")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try await sqlite(target, "SELECT COUNT(*) FROM goals") == "2")
        for live in [ledger.database, ledger.database + "-wal", "./walletwatch.sqlite"] {
            let result = try await ledger.cli().run("backup", live, "--replace")
            #expect(result.status == 65, "\(live): \(result.stderr)")
            #expect(result.stderr.contains("is the live database"), "\(result.stderr)")
        }
        #expect(try await ledger.cli().run("check").status == 0, "the live database is intact")
        let folder = ledger.folder.file("elsewhere")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let intoFolder = try await ledger.cli("2026-12-03T08:30:00Z").run("backup", folder, "--json")
        #expect(intoFolder.object?["path"] as? String == folder + "/walletwatch-20261203T083000.000Z.sqlite", "\(intoFolder.stderr)")
        let missing = try await ledger.cli().run("backup", ledger.folder.file("no/such/folder/b.sqlite"))
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: the backup \(ledger.folder.file("no/such/folder/b.sqlite")) was not made: cannot create"), "\(missing.stderr)")
    }

    @Test("run makes a backup at once when the newest is every_hours old, then keeps the newest `keep`")
    func daemonSchedule() async throws {
        let ledger = try await LedgerFolder(extraConfig: "[backup]\nevery_hours = 24\nkeep = 3\n")
        for now in ["2026-12-01T10:00:00Z", "2026-12-02T10:00:00Z", "2026-12-03T10:00:00Z"] {
            #expect(try await ledger.cli(now).run("backup").status == 0)
        }
        let backups = ledger.folder.file("backups")
        let cli = ledger.cli("2026-12-04T11:00:00Z")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: ledger.folder.path)
        let expected = ["walletwatch-20261202T100000.000Z.sqlite", "walletwatch-20261203T100000.000Z.sqlite", "walletwatch-20261204T110000.000Z.sqlite"]
        #expect(await eventually(within: .seconds(60)) {
            (try? FileManager.default.contentsOfDirectory(atPath: backups).sorted()) == expected
        }, "\((try? FileManager.default.contentsOfDirectory(atPath: backups)) ?? []): \(daemon.stderr)")
        #expect(await eventually(within: .seconds(10)) { daemon.stderr.contains("backup made") })
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(60)) == 0, "\(daemon.stderr)")
        #expect(try await ledger.cli().run("--db", (backups as NSString).appendingPathComponent(expected[2]), "check").status == 0)
    }

    @Test("a backup taken while the daemon ingests 60,000 movements holds all of that pass or none, and restores to a database that passes check")
    func duringIngest() async throws {
        try await Self.backupDuringIngest(movements: 60_000)
    }

    /// Starts `walletwatch run` on a barkd wallet with `movements` generated movements, takes a
    /// backup while the first pass writes (its WAL grows), and checks what the backup holds.
    static func backupDuringIngest(movements: Int) async throws {
        let folder = TemporaryDirectory("walletwatch-backup-ingest")
        let simulator = try await Simulator.start(scenario: Scenario(wallets: [
            WalletScenario(name: "ark", token: "t", generatedMovements: GeneratedMovements(count: movements, seed: 11)),
        ]))
        folder.write("token", "t")
        chmod(folder.file("token"), 0o600)
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "ark"
            kind = "barkd"
            url = "\(simulator.barkdURL("ark"))"
            token_file = "token"
            interval_seconds = 3600
            [rates]
            provider = "static"
            [rates.static]
            "BTC/USD" = "65000"
            [http]
            timeout_seconds = 600
            """)
        let cli = CLIRunner(folder: folder)
        let database = folder.file("walletwatch.sqlite")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: folder.path)
        var walGrew = false
        _ = await eventually(within: .seconds(300)) {
            let size = (try? FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int) ?? 0
            walGrew = size > 1 << 20
            return walGrew || !daemon.isRunning
        }
        #expect(walGrew, "the backup should start while the ingest writes: \(daemon.stderr)")
        let started = ContinuousClock.now
        let backup = try await cli.run("backup", folder.file("during.sqlite"), "--json")
        let took = ContinuousClock.now - started
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.object?["integrity"] as? String == "ok")
        // Still 0 in the live database: the pass had not committed when the backup was done,
        // so the backup did not wait for it.
        let liveAfter = try await sqlite(database, "SELECT COUNT(*) FROM transactions")
        #expect(liveAfter == "0", "the ingest committed before the backup was done (took \(took))")
        let copied = try await sqlite(folder.file("during.sqlite"), "SELECT COUNT(*) FROM transactions")
        #expect(copied == "0" || copied == "\(movements)", "a backup with half a pass: \(copied) rows")
        // What the pass in progress had staged (invisible to readers) is not carried in the copy.
        #expect(try await sqlite(folder.file("during.sqlite"), "SELECT COUNT(*) FROM ingest_passes") == "0")
        #expect(try await sqlite(folder.file("during.sqlite"), "SELECT COUNT(*) FROM ledger") == copied)

        // Restored in place of a database, it passes check.
        let restored = TemporaryDirectory("walletwatch-restored")
        try FileManager.default.copyItem(atPath: folder.file("during.sqlite"), toPath: restored.file("walletwatch.sqlite"))
        let check = try await cli.run("--db", restored.file("walletwatch.sqlite"), "check")
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")

        // Once the pass is in, a backup holds all of it, and passes check too.
        #expect(try await eventually(within: .seconds(900)) { try await sqlite(database, "SELECT COUNT(*) FROM transactions") == "\(movements)" },
                "the daemon's pass: \(daemon.stderr)")
        let after = try await cli.run("backup", folder.file("after.sqlite"))
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try await sqlite(folder.file("after.sqlite"), "SELECT COUNT(*) FROM transactions") == "\(movements)")
        #expect(try await cli.run("--db", folder.file("after.sqlite"), "check").status == 0)
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(120)) == 0, "\(daemon.stderr)")
        await simulator.stop()
    }
}

extension StressTests {
    @Suite("A backup during a 1,000,000-movement ingest")
    struct BackupDuringIngest {
        @Test("a backup taken during a 1,000,000-movement ingest holds none of the pass and restores to a database that passes check")
        func millionMovements() async throws {
            try await BackupCLITests.backupDuringIngest(movements: 1_000_000)
        }
    }
}
