import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// Writes that SQLite refuses: a read-only file, a database locked by another process past the
/// busy timeout, a full disk. Each is one `error:` line naming the database and the cause,
/// exit 1, and nothing of the write stored.
@Suite("CLI: writes SQLite refuses")
struct WriteRefusalCLITests {
    /// Runs the built walletwatch as the user `nobody` when the tests run as root (root may write
    /// any file, whatever its mode), else as the current user.
    func runUnprivileged(_ cli: CLIRunner, _ arguments: [String]) async throws -> CommandResult {
        if geteuid() == 0 {
            return try await ProcessRunner.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", cli.binary] + arguments,
                                               environment: cli.environment, currentDirectory: cli.folder)
        }
        return try await cli.run(arguments)
    }

    @Test("a read-only database file: reading works; a write is refused naming the file and the cause, exit 1, nothing stored")
    func readOnly() async throws {
        let ledger = try await LedgerFolder()
        let folder = TemporaryDirectory("walletwatch-readonly")
        #expect(try await ledger.cli().run("backup", folder.file("walletwatch.sqlite")).status == 0)
        try FileManager.default.copyItem(atPath: ledger.folder.file("walletwatch.toml"), toPath: folder.file("walletwatch.toml"))
        if geteuid() == 0 {
            for path in [folder.path, folder.file("walletwatch.sqlite"), folder.file("walletwatch.toml")] { chown(path, 65534, 65534) }
        }
        chmod(folder.file("walletwatch.sqlite"), 0o400)
        let database = folder.file("walletwatch.sqlite")
        let before = try await sqlite(database, "SELECT COUNT(*) FROM transactions")
        let cli = CLIRunner(folder: folder, now: "2026-12-01T10:00:00Z")

        let list = try await runUnprivileged(cli, ["tx", "list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.objects?.count == Int(before))
        for arguments in [["tx", "add", "Cash", "5"], ["goal", "add", "Boat", "--currency", "USD", "--target", "100"]] {
            let write = try await runUnprivileged(cli, arguments)
            #expect(write.status == 1, "\(arguments): \(write.stderr)")
            #expect(write.stderr == "error: the database \(database) refused the write, so nothing was changed: the file is read-only (attempt to write a readonly database); check the permissions of the file and its folder, or whether the file system is mounted read-only\n")
            #expect(write.stdout.isEmpty)
        }
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions") == before)
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM goals") == "2")
    }

    @Test("a database locked by another process's write past the busy timeout: refused naming the file and 'locked', exit 1; afterwards it works")
    func locked() async throws {
        let ledger = try await LedgerFolder()
        let flag = ledger.folder.file("locked")
        // Commits a change once (so that the WAL holds frames and opening needs no write: an
        // unchanged row would write nothing), then holds the write lock in an exclusive
        // transaction until it is killed.
        let locker = try BackgroundProcess("/usr/bin/python3", ["-c", """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("UPDATE change_counter SET value = value + 1")
            connection.execute("BEGIN EXCLUSIVE")
            connection.execute("UPDATE change_counter SET value = value + 1")
            open(sys.argv[2], "w").close()
            time.sleep(120)
            """, ledger.database, flag], environment: [:], currentDirectory: ledger.folder.path)
        #expect(await eventually(within: .seconds(30)) { FileManager.default.fileExists(atPath: flag) }, "\(locker.stderr)")
        let before = try await sqlite(ledger.database, "SELECT COUNT(*) FROM transactions")

        let started = ContinuousClock.now
        let refused = try await ledger.cli().run(["tx", "add", "Cash", "5"], extraEnvironment: ["WALLETWATCH_BUSY_TIMEOUT_SECONDS": "1"])
        let waited = ContinuousClock.now - started
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("error: the database \(ledger.database) refused the write, so nothing was changed: it is locked by another process's write for longer than the busy timeout"),
                "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(waited >= .seconds(1) && waited < .seconds(20), "the 1 s busy timeout: waited \(waited)")
        let badTimeout = try await ledger.cli().run(["tx", "list"], extraEnvironment: ["WALLETWATCH_BUSY_TIMEOUT_SECONDS": "soon"])
        #expect(badTimeout.status == 64 && badTimeout.stderr.contains("WALLETWATCH_BUSY_TIMEOUT_SECONDS='soon'"))

        locker.send(SIGKILL)
        _ = await locker.exitStatus(within: .seconds(30))
        #expect(try await sqlite(ledger.database, "SELECT COUNT(*) FROM transactions") == before, "nothing of the refused write")
        let after = try await ledger.cli().run(["tx", "add", "Cash", "5"], extraEnvironment: ["WALLETWATCH_BUSY_TIMEOUT_SECONDS": "1"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try await sqlite(ledger.database, "SELECT COUNT(*) FROM transactions") == "\(Int(before)! + 1)")
    }

    /// A 2 MiB tmpfs mounted in a private mount namespace (so the mount ends with the script,
    /// whatever happens), filled up but for 160 KiB: enough to open the database, not enough
    /// for an import of 6,000 prices. Where no mount namespace can be had, a file size limit
    /// (`ulimit -f`) refuses the write instead, which SQLite reports as an I/O error.
    @Test("a full disk: an import of 6,000 prices is refused naming the file and the cause, exit 1, none of it stored; with space it imports")
    func diskFull() async throws {
        let ledger = try await LedgerFolder()
        let work = TemporaryDirectory("walletwatch-full")
        #expect(try await ledger.cli().run("backup", work.file("source.sqlite")).status == 0)
        work.write("walletwatch.toml", "database = \"walletwatch.sqlite\"\n[rates]\nprovider = \"static\"\n[rates.static]\n\"BTC/USD\" = \"65000\"\n")
        var prices = "date,base,quote,rate\n"
        var day = Instant.at("2005-01-01T00:00:00Z")
        for index in 0..<6000 {
            prices += "\(day.iso8601.prefix(10)),BTC,USD,\(1000 + index).25\n"
            day = day.adding(seconds: 86_400)
        }
        work.write("prices.csv", prices)
        work.write("run.sh", """
            set -u
            work="$1"; binary="$2"; limit="$3"
            mkdir -p "$work/full"
            if [ "$limit" = mount ]; then
              mount -t tmpfs -o size=2m tmpfs "$work/full" || exit 3
            fi
            cp "$work/source.sqlite" "$work/full/walletwatch.sqlite"
            cp "$work/walletwatch.toml" "$work/full/walletwatch.toml"
            cd "$work/full"
            before=$(sqlite3 walletwatch.sqlite "SELECT COUNT(*) FROM rate_history")
            export WALLETWATCH_CONFIG="$work/full/walletwatch.toml" WALLETWATCH_NOW=2026-12-01T10:00:00Z
            if [ "$limit" = mount ]; then
              dd if=/dev/zero of=filler bs=4096 2>/dev/null
              truncate -s -160K filler
              "$binary" rates import "$work/prices.csv" > "$work/stdout" 2> "$work/stderr"
              echo "status $?"
              rm filler
            else
              size=$(( $(stat -c %s walletwatch.sqlite) / 1024 + 64 ))
              (ulimit -f "$size"; trap '' XFSZ; exec "$binary" rates import "$work/prices.csv") > "$work/stdout" 2> "$work/stderr"
              echo "status $?"
            fi
            echo "before $before"
            echo "after $(sqlite3 walletwatch.sqlite "SELECT COUNT(*) FROM rate_history")"
            "$binary" check > /dev/null 2>&1; echo "check $?"
            "$binary" rates import "$work/prices.csv" > /dev/null 2>&1; echo "retry $?"
            echo "final $(sqlite3 walletwatch.sqlite "SELECT COUNT(*) FROM rate_history")"
            """)
        let (report, mounted, result) = try await runOnFullDisk(work, binary: ledger.cli().binary, reporting: "status")
        let stderr = (try? String(contentsOfFile: work.file("stderr"), encoding: .utf8)) ?? ""
        let database = work.file("full/walletwatch.sqlite")
        #expect(report["status"] == "1", "\(result.stdout) \(result.stderr) \(stderr)")
        let cause = mounted ? "the disk is full (database or disk is full); free some space and try again"
                            : "a disk I/O error (disk I/O error); the disk may be full, failing, or past a file size limit"
        #expect(stderr == "error: the database \(database) refused the write, so nothing was changed: \(cause)\n", "\(stderr)")
        #expect(report["before"] != nil && report["before"] != "0")
        #expect(report["after"] == report["before"], "nothing of the import: \(result.stdout)")
        #expect(report["check"] == "0", "the database passes check after the refused write")
        #expect(report["retry"] == "0", "with room, the same import works: \(result.stdout)")
        #expect(report["final"] == "\(Int(report["before"] ?? "0")! + 6000)")
    }

    /// A barkd wallet of 20,000 movements, ingested onto a tmpfs that is full but for the
    /// history's download (kept beside the database while the pass runs) and a third of what
    /// the ingest writes (measured first on a normal disk): its pass fails while it stages, and
    /// giving it up may fail too. `check` then either passes or reports the leftover pass
    /// alone, naming the command that clears it; once that command (the next pass of the
    /// source) has run with room, `check` passes and every movement is there once.
    @Test("a full disk during an ingest: the pass fails; check names the command that clears a leftover; after the next pass check passes")
    func diskFullIngest() async throws {
        let simulator = try await Simulator.start(scenario: Scenario(wallets: [
            WalletScenario(name: "ark", token: "t", generatedMovements: GeneratedMovements(count: 20_000, seed: 3)),
        ]))
        let work = TemporaryDirectory("walletwatch-full-ingest")
        work.writeBarkdConfig(simulator, top: "database = \"walletwatch.sqlite\"", tokenFile: work.file("token"))
        let measure = CLIRunner(folder: work, now: "2026-12-01T10:00:00Z")
        #expect(try await measure.run("asset", "list").status == 0)
        let history = try await ProcessRunner.run("/usr/bin/curl", ["-sS", "-H", "Authorization: Bearer t", simulator.barkdURL("ark") + "/api/v1/history"],
                                                  environment: [:], currentDirectory: work.path)
        let download = history.stdout.utf8.count
        #expect(download > 1 << 20, "\(history.stderr)")
        let size = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        let files = ["", "-wal", "-shm"].map { work.file("walletwatch.sqlite") + $0 }
        #expect(try await measure.run("backup", work.file("source.sqlite")).status == 0)
        let before = files.map(size).reduce(0, +)
        let full = try await measure.run("ingest")
        #expect(full.status == 0, "\(full.stderr)")
        let growth = files.map(size).reduce(0, +) - before
        let free = (download + growth / 3) / 4096 * 4096
        work.write("run.sh", """
            set -u
            work="$1"; binary="$2"; limit="$3"; free="$4"
            mkdir -p "$work/full"
            if [ "$limit" = mount ]; then
              mount -t tmpfs -o size=64m tmpfs "$work/full" || exit 3
            fi
            cp "$work/source.sqlite" "$work/full/walletwatch.sqlite"
            cp "$work/walletwatch.toml" "$work/full/walletwatch.toml"
            cd "$work/full"
            export WALLETWATCH_CONFIG="$work/full/walletwatch.toml" WALLETWATCH_NOW=2026-12-01T10:00:00Z
            if [ "$limit" = mount ]; then
              dd if=/dev/zero of=filler bs=4096 2>/dev/null
              truncate -s -"$free" filler
              "$binary" ingest > /dev/null 2> "$work/ingest.err"
              echo "ingest $?"
            else
              size=$(( ($(stat -c %s walletwatch.sqlite) + free) / 1024 ))
              (ulimit -f "$size"; trap '' XFSZ; exec "$binary" ingest) > /dev/null 2> "$work/ingest.err"
              echo "ingest $?"
            fi
            "$binary" check > "$work/check.out" 2>&1; echo "check $?"
            rm -f filler
            "$binary" ingest --source ark > /dev/null 2> "$work/retry.err"; echo "retry $?"
            "$binary" check > "$work/final.out" 2>&1; echo "final $?"
            echo "passes $(sqlite3 walletwatch.sqlite "SELECT COUNT(*) FROM ingest_passes")"
            echo "rows $(sqlite3 walletwatch.sqlite "SELECT COUNT(*) FROM transactions")"
            """)
        let (report, mounted, result) = try await runOnFullDisk(work, binary: measure.binary, reporting: "rows", extra: ["\(free)"])
        let read = { (name: String) in (try? String(contentsOfFile: work.file(name), encoding: .utf8)) ?? "" }
        #expect(report["ingest"] == "1", "the ingest on a full disk fails (mounted: \(mounted)): \(result.stdout) \(result.stderr) \(read("ingest.err"))")
        let check = read("check.out")
        if report["check"] != "0" {
            // A leftover pass, and nothing else: its finding says how to clear it.
            let findings = check.split(separator: "\n").filter { !$0.hasPrefix("error:") }
            #expect(!findings.isEmpty && findings.allSatisfy { $0.hasPrefix("ingest_passes: ") && $0.hasSuffix("run `walletwatch ingest --source ark`") },
                    "\(check)")
        }
        #expect(report["retry"] == "0", "with room, the next pass works: \(read("retry.err"))")
        #expect(report["final"] == "0", "nothing is left that check reports: \(read("final.out"))")
        #expect(report["passes"] == "0" && report["rows"] == "20000", "\(result.stdout)")
        print("disk-full ingest: a \(download)-byte history, \(growth) bytes written by the whole ingest, \(free) left free; check after the failed pass said: \(check)")
        await simulator.stop()
    }

    /// Runs `work/run.sh` (bash: `$1` the work folder, `$2` the binary, `$3` `mount` or
    /// `ulimit`, then `extra`) in a private mount namespace, where it mounts a small tmpfs that
    /// it fills (the mount ends with the script, whatever happens); where no mount namespace can
    /// be had, without one, the script limiting the file size instead. Its output is read as
    /// `key value` pairs; `reporting` is a key that shows the script ran to the end.
    func runOnFullDisk(_ work: TemporaryDirectory, binary: String, reporting: String, extra: [String] = [])
        async throws -> (report: [String: String], mounted: Bool, result: CommandResult) {
        var result = try await ProcessRunner.run("/usr/bin/unshare", (geteuid() == 0 ? ["--mount", "--propagation", "private"] : ["--user", "--map-root-user", "--mount"])
                                                 + ["/bin/bash", work.file("run.sh"), work.path, binary, "mount"] + extra,
                                                 environment: ProcessInfo.processInfo.environment, currentDirectory: work.path)
        let mounted = result.status == 0 && result.stdout.contains("\(reporting) ")
        if !mounted {
            // No mount namespace here: a file size limit instead.
            try? FileManager.default.removeItem(atPath: work.file("full"))
            result = try await ProcessRunner.run("/bin/bash", [work.file("run.sh"), work.path, binary, "ulimit"] + extra,
                                                 environment: ProcessInfo.processInfo.environment, currentDirectory: work.path)
        }
        let report = Dictionary(result.stdout.split(separator: "\n").flatMap { line -> [(String, String)] in
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            return words.count == 2 ? [(words[0], words[1])] : []
        }) { _, later in later }
        return (report, mounted, result)
    }
}
