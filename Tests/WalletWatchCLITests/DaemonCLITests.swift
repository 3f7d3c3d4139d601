import Foundation
import Testing
import TestSupport
import WalletWatchSim

@Suite("CLI: run, serve and watch")
struct DaemonCLITests {
    /// Starts `walletwatch serve` on a free port and returns it with its port.
    func serve(_ demo: DemoSetup, _ extra: [String] = []) async throws -> (BackgroundProcess, Int) {
        let cli = demo.cli()
        let portFile = demo.folder.file("web.port")
        let server = try BackgroundProcess(cli.binary, ["serve", "--listen", "127.0.0.1:0", "--port-file", portFile] + extra,
                                           environment: cli.environment, currentDirectory: demo.folder.path)
        var port = 0
        #expect(await eventually(within: .seconds(20)) {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return port > 0
        }, "serve did not start: \(server.stderr)")
        return (server, port)
    }

    func curl(_ arguments: [String]) async throws -> CommandResult {
        try await ProcessRunner.run("/usr/bin/curl", ["-s", "--max-time", "60"] + arguments, environment: [:], currentDirectory: "/")
    }

    @Test("with serve running, a CLI ingest in another process sends an SSE event within 2 s; /api/v1/status equals month status --json")
    func serveAndIngest() async throws {
        let demo = try await DemoSetup()
        try await demo.cli().run("goal", "add", "House", "--currency", "USD", "--target", "10000", "--deadline", "2027-12-31")
        let (server, port) = try await serve(demo)
        #expect(try await eventually(within: .seconds(20)) { try await curl(["http://127.0.0.1:\(port)/api/v1/transactions"]).stdout.contains("ark:ark:") },
                "the daemon's first ingest")

        let events = try BackgroundProcess("/usr/bin/curl", ["-sN", "--max-time", "120", "http://127.0.0.1:\(port)/events"],
                                           environment: [:], currentDirectory: "/")
        #expect(await eventually(within: .seconds(30)) { events.stdout.contains("event: change") }, "the first event")
        let before = events.stdout.components(separatedBy: "event: change").count
        try await demo.simulator.addMovement(BarkdMovement(subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: 4242,
                                                           time: .init(createdAt: SimTime(unixSeconds: 1_795_261_000))), to: "ark")
        let ingest = try await demo.cli().run("ingest", "--source", "ark")
        #expect(ingest.status == 0)
        let finished = ContinuousClock.now
        #expect(await eventually(within: .seconds(2)) { events.stdout.components(separatedBy: "event: change").count > before },
                "no event within 2 s of the ingest")
        #expect(ContinuousClock.now - finished < .seconds(2))
        events.send(SIGKILL)

        let api = try #require(try JSONSerialization.jsonObject(with: Data(try await curl(["http://127.0.0.1:\(port)/api/v1/status"]).stdout.utf8)) as? NSDictionary)
        let cli = try #require(try await demo.cli().run("month", "status", "--json").object as NSDictionary?)
        #expect(api == cli)
        #expect((api["goals"] as? [Any])?.count == 1)

        server.send(SIGTERM)
        #expect(await server.exitStatus(within: .seconds(30)) == 0, "\(server.stderr)")
    }

    /// Two daemons on one database would each deliver the outbox: half the webhooks twice.
    @Test("a second run or serve on the same database exits 1 at once naming the holder's pid; one-shot commands still work")
    func oneDaemonPerDatabase() async throws {
        let demo = try await DemoSetup()
        let cli = demo.cli()
        let first = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
        let lock = demo.folder.file("walletwatch.sqlite.daemon.lock")
        #expect(await eventually(within: .seconds(20)) {
            (try? String(contentsOfFile: lock, encoding: .utf8)) == "\(first.pid) run\n"
        }, "\(first.stderr)")
        for command in [["run"], ["serve", "--listen", "127.0.0.1:0"]] {
            let started = ContinuousClock.now
            let second = try await cli.run(command)
            #expect(second.status == 1, "\(command): \(second.stderr)")
            #expect(second.stderr == "error: another walletwatch daemon (pid \(first.pid), walletwatch run) is already running on \(demo.folder.file("walletwatch.sqlite")); only one run or serve may use a database: stop that one first\n",
                    "\(second.stderr)")
            #expect(ContinuousClock.now - started < .seconds(20), "refused at once")
        }
        #expect(try await cli.run("ingest").status == 0, "one-shot commands are not affected")
        #expect(try await cli.run("tag", "create", "beside-the-daemon").status == 0)
        // Killed, the first daemon's lock goes with it: the next one starts.
        first.send(SIGKILL)
        #expect(await first.exitStatus(within: .seconds(10)) != nil)
        let next = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
        #expect(await eventually(within: .seconds(20)) { (try? String(contentsOfFile: lock, encoding: .utf8)) == "\(next.pid) run\n" },
                "\(next.stderr)")
        // Its signal handlers are in place once it says so.
        #expect(await eventually(within: .seconds(20)) { next.stderr.contains("daemon started") }, "\(next.stderr)")
        next.send(SIGTERM)
        #expect(await next.exitStatus(within: .seconds(30)) == 0, "\(next.stderr)")
        #expect((try? FileManager.default.attributesOfItem(atPath: lock)[.posixPermissions] as? Int) == 0o600)
    }

    /// Issue 26: the lock was keyed by the path, so a hard link to the database (another name
    /// for the same file) let a second daemon run beside the first.
    @Test("a second daemon reaching the database through a hard link is refused, naming the first's pid, without opening it")
    func hardLinkedDatabase() async throws {
        let demo = try await DemoSetup()
        let cli = demo.cli()
        #expect(try await cli.run("ingest").status == 0)
        let first = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
        defer { first.send(SIGKILL) }
        #expect(await eventually(within: .seconds(20)) { first.stderr.contains("daemon started") }, "\(first.stderr)")
        let elsewhere = TemporaryDirectory("walletwatch-hardlink")
        let linked = elsewhere.file("other-name.sqlite")
        #expect(link(demo.folder.file("walletwatch.sqlite"), linked) == 0, "a hard link: \(String(cString: strerror(errno)))")
        for command in [["run", "--db", linked], ["serve", "--listen", "127.0.0.1:0", "--db", linked]] {
            let second = try await cli.run(command)
            #expect(second.status == 1, "\(command): \(second.stderr)")
            #expect(second.stderr == "error: another walletwatch daemon (pid \(first.pid), walletwatch run) is already running on \(linked); only one run or serve may use a database: stop that one first\n",
                    "\(second.stderr)")
        }
        // Refused before the database was opened: SQLite made no log of its own beside the link.
        #expect(!FileManager.default.fileExists(atPath: linked + "-wal"))
        first.send(SIGTERM)
        #expect(await first.exitStatus(within: .seconds(30)) == 0, "\(first.stderr)")
    }

    @Test("serve without sources and with static rates stays up for manual assets until it is stopped")
    func serveWithoutSources() async throws {
        let folder = TemporaryDirectory("walletwatch-serve-manual")
        folder.write("walletwatch.toml", "[rates]\nprovider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"60000\"\n")
        let cli = CLIRunner(folder: folder)
        #expect(try await cli.run("asset", "add", "Cash", "--currency", "USD").status == 0)
        let portFile = folder.file("web.port")
        let server = try BackgroundProcess(cli.binary, ["serve", "--listen", "127.0.0.1:0", "--port-file", portFile],
                                           environment: cli.environment, currentDirectory: folder.path)
        var port = 0
        #expect(await eventually(within: .seconds(20)) {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return port > 0
        }, "serve did not start: \(server.stderr)")
        // The static rates are stored once at start, which ends the rate loop: the web view
        // must outlive it. A change made afterwards still reaches the page.
        #expect(try await eventually { try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM exchange_rates") == "1" })
        #expect(try await cli.run("tx", "add", "Cash", "125.50").status == 0)
        #expect(try await curl(["http://127.0.0.1:\(port)/"]).stdout.contains("125.50 USD"), "\(server.stderr)")
        #expect(try await curl(["http://127.0.0.1:\(port)/healthz"]).stdout == "ok\n")
        server.send(SIGTERM)
        #expect(await server.exitStatus(within: .seconds(30)) == 0, "\(server.stderr)")
    }

    @Test("serve refuses a non-loopback address without a token; with one it starts and guards every route")
    func nonLoopback() async throws {
        let demo = try await DemoSetup()
        let refused = try await demo.cli().run("serve", "--listen", "0.0.0.0:8477")
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("error: refusing to listen on 0.0.0.0:8477 without a token"))
        demo.folder.write("web.token", "s3cr3t-s3cr3t-s3cr3t-s3cr3t\n")
        let config = try String(contentsOfFile: demo.folder.file("walletwatch.toml"), encoding: .utf8)
        demo.folder.write("walletwatch.toml", config + "\n[serve]\ntoken_file = \"web.token\"\n")
        let cli = demo.cli()
        let portFile = demo.folder.file("web.port")
        let server = try BackgroundProcess(cli.binary, ["serve", "--listen", "0.0.0.0:0", "--port-file", portFile],
                                           environment: cli.environment, currentDirectory: demo.folder.path)
        var port = 0
        #expect(await eventually(within: .seconds(20)) {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            return port > 0
        })
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/v1/status"]).stdout == "401")
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer s3cr3t-s3cr3t-s3cr3t-s3cr3t",
                                "http://127.0.0.1:\(port)/api/v1/status"]).stdout == "200")
        #expect(try await curl(["http://127.0.0.1:\(port)/healthz"]).stdout == "ok\n")
        #expect(!server.stderr.contains("s3cr3t"), "the token reached the logs")
        server.send(SIGTERM)
        #expect(await server.exitStatus(within: .seconds(30)) == 0)
    }

    @Test("SIGTERM during an ingest: the daemon stops cleanly and the database holds all of the pass or none of it")
    func sigtermDuringIngest() async throws {
        let folder = TemporaryDirectory("walletwatch-sigterm")
        let simulator = try await Simulator.start(scenario: Scenario(wallets: [
            WalletScenario(name: "ark", token: "t", generatedMovements: GeneratedMovements(count: 6000, seed: 5)),
        ]))
        folder.write("token", "t")
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "ark"
            kind = "barkd"
            url = "\(simulator.barkdURL("ark"))"
            token_file = "token"
            [rates]
            provider = "static"
            [rates.static]
            "BTC/USD" = "65000"
            """)
        let cli = CLIRunner(folder: folder)
        let database = folder.file("walletwatch.sqlite")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: folder.path)
        // The pass is writing once staged rows are in the ledger (they are not visible in
        // `transactions` yet); by then the daemon handles signals. (The WAL's size is no sign:
        // a new database's migrations alone grow it by hundreds of KiB.)
        var staging = false
        _ = await eventually(within: .seconds(120)) {
            let staged = (try? await sqlite(database, "SELECT COUNT(*) FROM ledger")).flatMap { Int($0) } ?? 0
            staging = staged > 0 && daemon.stderr.contains("daemon started")
            return staging || !daemon.isRunning
        }
        daemon.send(SIGTERM)
        let status = await daemon.exitStatus(within: .seconds(60))
        #expect(staging, "the signal should arrive while the ingest writes")
        #expect(status == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("daemon stopped"))
        #expect(try await sqlite(database, "PRAGMA integrity_check") == "ok")
        let count = try await sqlite(database, "SELECT COUNT(*) FROM transactions")
        #expect(count == "0" || count == "6000", "a half-written pass: \(count) rows")
        #expect(try await cli.run("ingest").status == 0)
        #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions") == "6000")
        await simulator.stop()
    }

    @Test("run ingests a source at once when barkd notifies a new movement")
    func notification() async throws {
        let demo = try await DemoSetup()
        let config = try String(contentsOfFile: demo.folder.file("walletwatch.toml"), encoding: .utf8)
        demo.folder.write("walletwatch.toml", config.replacingOccurrences(of: "interval_seconds = 60", with: "interval_seconds = 3600"))
        let cli = demo.cli()
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
        #expect(try await eventually(within: .seconds(20)) { try await demo.cli().run("tx", "show", "ark:ark:11").status == 0 }, "the first ingest")
        // Whether the daemon's long poll is parked yet or not: a movement newer than its
        // `since` is answered at once either way.
        let movement = try await demo.simulator.addMovement(BarkdMovement(
            subsystem: .init(name: "bark.lightning_receive", kind: "receive"), effectiveBalanceSat: 777,
            time: .init(createdAt: SimTime(unixSeconds: 1_795_261_000))), to: "ark")
        // Well before the 3600 s interval: only the notification can have started this pass.
        #expect(try await eventually(within: .seconds(60)) { try await demo.cli().run("tx", "show", "ark:ark:\(movement.id)").status == 0 },
                "the notification did not trigger an ingest: \(daemon.stderr)")
        daemon.send(SIGINT)
        #expect(await daemon.exitStatus(within: .seconds(30)) == 0)
    }

    @Test("watch --once prints one frame; without a terminal watch prints a new frame within 2 s of a change")
    func watch() async throws {
        let demo = try await DemoSetup()
        try await demo.cli().run("ingest")
        try await demo.cli().run("goal", "add", "House", "--currency", "USD", "--target", "10000", "--deadline", "2027-12-31")
        let frame = try await demo.cli().run("watch", "--once")
        #expect(frame.status == 0)
        #expect(frame.stdout.contains("House") && frame.stdout.contains("TOTAL (USD)") && frame.stdout.contains("Ark wallet"))
        #expect(frame.stdout.contains("source ark: ok"))
        #expect(!frame.stdout.contains("\u{1B}["), "plain text, no escape codes")

        let cli = demo.cli()
        let watcher = try BackgroundProcess(cli.binary, ["watch"], environment: cli.environment, currentDirectory: demo.folder.path)
        #expect(await eventually(within: .seconds(30)) { watcher.stdout.contains("TOTAL (USD)") }, "the first frame")
        #expect(!watcher.stdout.contains("Boat"))
        try await demo.cli().run("goal", "add", "Boat", "--currency", "USD", "--target", "500", "--deadline", "2027-01-31")
        let changed = ContinuousClock.now
        // Other frames may come meanwhile (rates refreshed, the clock's tick): the one that
        // counts is the frame showing the change.
        #expect(await eventually(within: .seconds(2)) { watcher.stdout.contains("Boat") }, "no frame with the change within 2 s")
        #expect(ContinuousClock.now - changed < .seconds(2))
        watcher.send(SIGTERM)
        #expect(await watcher.exitStatus(within: .seconds(30)) == 0)
    }
}
