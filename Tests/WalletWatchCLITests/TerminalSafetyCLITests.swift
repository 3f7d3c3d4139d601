import Foundation
import Testing
import TestSupport
import WalletWatchSim

/// Strings stored from sources and users never drive the terminal: every control character
/// reaches it escaped, in every plain output; `--json` carries the exact strings.
@Suite("CLI: control characters in stored strings")
struct TerminalSafetyCLITests {
    /// Retitles the window and clears the screen, then a C1 CSI, a right-to-left override,
    /// DEL and a carriage return that would overwrite the start of the line.
    static let hostile = "\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m\u{202E}\u{7F}x\ry"
    /// The same, as the documentation says it is shown (written by hand).
    static let shown = #"\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{9b}31m\u{202e}\u{7f}x\u{d}y"#
    /// The start of it, for lines `watch` cuts to its width.
    static let shownStart = #"\u{1b}]0;PWNED\u{7}\u{1b}[2J"#
    /// `hostile` for the sqlite3 command-line tool.
    static let hostileSQL = "char(27) || ']0;PWNED' || char(7) || char(27) || '[2J' || char(155) || '31m' || char(8238) || char(127) || 'x' || char(13) || 'y'"

    /// The characters a terminal obeys, by their code points: C0 but the line feed, DEL, C1,
    /// and the bidirectional embeddings, overrides and isolates.
    static func controls(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    func expectInert(_ result: CommandResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Self.controls(result.stdout).isEmpty, "\(what): control characters on stdout: \(Self.controls(result.stdout))", sourceLocation: sourceLocation)
        #expect(Self.controls(result.stderr).isEmpty, "\(what): control characters on stderr: \(Self.controls(result.stderr))", sourceLocation: sourceLocation)
    }

    /// The demo ingested, then a manual asset, a note, a tag, a goal, a txid and a failed
    /// ingest's error text holding `hostile`. Names are stored through the database file: the
    /// command line refuses control characters in names, but a database may hold them (an older
    /// version, another tool), and a txid comes from a source.
    func hostileDemo() async throws -> (DemoSetup, noteTxid: String, hostileTxid: String) {
        let demo = try await DemoSetup()
        let cli = demo.cli()
        #expect(try await cli.run("ingest").status == 0)
        #expect(try await cli.run("asset", "add", "Cash", "--currency", "USD").status == 0)
        let noted = try await cli.run("tx", "add", "Cash", "100", "--date", "2026-11-02", "--note", "salary" + Self.hostile, "--json")
        #expect(noted.status == 0, "\(noted.stderr)")
        let noteTxid = try #require(noted.object?["txid"] as? String)
        #expect(try await cli.run("tag", "add", noteTxid, "groceries").status == 0)
        let other = try await cli.run("tx", "add", "Cash", "5", "--date", "2026-11-03", "--json")
        let otherTxid = try #require(other.object?["txid"] as? String)
        #expect(try await cli.run("goal", "add", "House", "--currency", "USD", "--target", "10000", "--deadline", "2027-12-31").status == 0)
        let database = demo.folder.file("walletwatch.sqlite")
        _ = try await sqlite(database, """
            UPDATE asset_rows SET name = 'Cash' || \(Self.hostileSQL) WHERE name = 'Cash';
            UPDATE tags SET name = 'food' || \(Self.hostileSQL) WHERE name = 'groceries';
            UPDATE goals SET name = 'House' || \(Self.hostileSQL) WHERE name = 'House';
            UPDATE ledger SET txid = 'manual:' || \(Self.hostileSQL) WHERE txid = '\(otherTxid)';
            INSERT INTO ingest_runs (source, started_at, finished_at, ok, error)
                SELECT source, started_at, finished_at, 0, 'boom' || \(Self.hostileSQL) FROM ingest_runs WHERE source = 'cold' LIMIT 1;
            """)
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions WHERE txid = 'manual:' || \(Self.hostileSQL)") == "1")
        return (demo, noteTxid, "manual:" + Self.hostile)
    }

    @Test("tables, tx show, watch, warning: and error: lines show control characters escaped, never raw")
    func plainOutputEscaped() async throws {
        let (demo, noteTxid, hostileTxid) = try await hostileDemo()
        let cli = demo.cli()

        let list = try await cli.run("tx", "list")
        #expect(list.status == 0)
        expectInert(list, "tx list")
        #expect(list.stdout.contains("manual:" + Self.shown), "the txid")
        #expect(list.stdout.contains("Cash" + Self.shown), "the asset name")
        #expect(list.stdout.contains("food" + Self.shown), "the tag")
        // Columns stay aligned: every row is as wide as the header up to the TXID column.
        let lines = list.stdout.split(separator: "\n")
        let txidColumn = try #require(lines.first?.range(of: "TXID")).lowerBound.utf16Offset(in: lines[0])
        for line in lines.dropFirst() where line.contains("manual:") {
            #expect(line.range(of: "manual:")?.lowerBound.utf16Offset(in: line) == txidColumn, "\(line)")
        }

        let show = try await cli.run("tx", "show", hostileTxid)
        #expect(show.status == 0, "\(show.stderr)")
        expectInert(show, "tx show")
        #expect(show.stdout.contains("txid        manual:" + Self.shown))
        let noted = try await cli.run("tx", "show", noteTxid)
        expectInert(noted, "tx show with a note")
        #expect(noted.stdout.contains("note        salary" + Self.shown))

        for command in [["asset", "list"], ["tag", "list"], ["goal", "list"], ["month", "status"], ["balance"]] {
            let result = try await cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            expectInert(result, command.joined(separator: " "))
            #expect(result.stdout.contains(Self.shownStart), "\(command) shows the name escaped: \(result.stdout)")
        }

        let frame = try await cli.run("watch", "--once")
        #expect(frame.status == 0)
        expectInert(frame, "watch --once")
        #expect(frame.stdout.contains("source cold: FAILED"), "\(frame.stdout)")
        #expect(frame.stdout.contains("boom" + Self.shownStart), "the failed ingest's error text")
        #expect(frame.stdout.contains("Cash" + Self.shownStart) && frame.stdout.contains("House" + Self.shownStart))

        // A frame of the live view into a pipe goes the same way.
        let watcher = try BackgroundProcess(cli.binary, ["watch"], environment: cli.environment, currentDirectory: demo.folder.path)
        #expect(await eventually(within: .seconds(30)) { watcher.stdout.contains("boom" + Self.shownStart) }, "the first frame")
        watcher.send(SIGTERM)
        #expect(await watcher.exitStatus(within: .seconds(30)) == 0)
        #expect(Self.controls(watcher.stdout).isEmpty, "watch: \(Self.controls(watcher.stdout))")

        // A warning line and an error line naming the stored txid.
        let untag = try await cli.run("tag", "remove", hostileTxid, "food" + Self.hostile)
        #expect(untag.status == 0, "\(untag.stderr)")
        expectInert(untag, "tag remove")
        #expect(untag.stderr == "warning: manual:\(Self.shown) did not carry tag 'food\(Self.shown)'\n")
        let missing = try await cli.run("tx", "show", hostileTxid + "nope")
        #expect(missing.status == 65)
        expectInert(missing, "an error")
        #expect(missing.stderr.hasPrefix("error: no transaction with txid 'manual:\(Self.shown)nope'"), "\(missing.stderr)")
    }

    @Test("--json carries the exact strings, with every control character as a JSON escape")
    func jsonExact() async throws {
        let (demo, noteTxid, hostileTxid) = try await hostileDemo()
        let cli = demo.cli()
        let show = try await cli.run("tx", "show", hostileTxid, "--json")
        #expect(show.status == 0)
        expectInert(show, "tx show --json")
        #expect(show.stdout.contains(#"\u001b]0;PWNED\u0007\u001b[2J\u009b31m\u202e\u007fx\ry"#), "\(show.stdout)")
        #expect(show.object?["txid"] as? String == hostileTxid)
        #expect(show.object?["asset"] as? String == "Cash" + Self.hostile)
        let noted = try await cli.run("tx", "show", noteTxid, "--json")
        #expect(noted.object?["note"] as? String == "salary" + Self.hostile)
        #expect(noted.object?["tags"] as? [String] == ["food" + Self.hostile])
        let goals = try await cli.run("goal", "list", "--json")
        expectInert(goals, "goal list --json")
        #expect(try #require(goals.objects).contains { $0["name"] as? String == "House" + Self.hostile }, "\(goals.stdout)")
    }

    @Test("a source's string reaches ingest's warning: line and the daemon's log escaped")
    func sourceStringsEscaped() async throws {
        let demo = try await DemoSetup()
        try await demo.simulator.addMovement(BarkdMovement(subsystem: .init(name: "bark." + Self.hostile, kind: "receive"), effectiveBalanceSat: 4242,
                                                           time: .init(createdAt: SimTime(unixSeconds: 1_795_261_000))), to: "ark")
        let ingest = try await demo.cli().run("ingest", "--source", "ark")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        expectInert(ingest, "ingest")
        #expect(ingest.stderr.contains("warning: source 'ark': movement subsystem 'bark.\(Self.shown)' is unknown"), "\(ingest.stderr)")

        // The daemon decodes the history only when it changed since the last pass (an unchanged
        // one is recognised by its digest), so a second hostile movement arrives first.
        try await demo.simulator.addMovement(BarkdMovement(subsystem: .init(name: "bark." + Self.hostile, kind: "send"), effectiveBalanceSat: -42,
                                                           time: .init(createdAt: SimTime(unixSeconds: 1_795_261_100))), to: "ark")
        let cli = demo.cli()
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
        #expect(await eventually(within: .seconds(60)) { daemon.stderr.contains("movement subsystem") }, "the daemon's warning: \(daemon.stderr)")
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(60)) == 0)
        #expect(daemon.stderr.contains("movement subsystem 'bark.\(Self.shown)' is unknown"), "\(daemon.stderr)")
        #expect(Self.controls(daemon.stderr).isEmpty, "the daemon's log: \(Self.controls(daemon.stderr))")
    }

    @Test("export csv to a pipe is the exact data; to a terminal it is shown escaped")
    func exportData() async throws {
        let (demo, _, _) = try await hostileDemo()
        let cli = demo.cli()
        let piped = try await cli.run("export", "csv")
        #expect(piped.status == 0)
        #expect(piped.stdout.contains("salary" + Self.hostile), "a pipe gets the note byte for byte")

        // script(1) runs the command on a pseudo-terminal and copies what it printed; the
        // terminal itself turns each line feed into CR LF (after CSV's own CR).
        let command = ([cli.binary, "export", "csv"]).map { "'\($0)'" }.joined(separator: " ")
        let terminal = try await ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: cli.environment,
                                                    currentDirectory: demo.folder.path)
        #expect(terminal.status == 0, "\(terminal.stderr)")
        let shown = terminal.stdout.replacingOccurrences(of: "\r+\n", with: "\n", options: .regularExpression)
        #expect(shown.contains("salary" + Self.shown), "\(shown)")
        #expect(Self.controls(shown).isEmpty, "\(Self.controls(shown))")
    }
}
