import Foundation
import Testing
import TestSupport
import WalletWatchSim

@Suite("CLI: notify and the daemon's webhooks", .serialized)
struct NotifyCLITests {
    /// A folder with a config of one manual world and the `[[notify]]` text given.
    static func folder(_ notify: String) -> (TemporaryDirectory, CLIRunner) {
        let folder = TemporaryDirectory("walletwatch-notify")
        folder.write("walletwatch.toml", "[rates]\nprovider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"60000\"\n" + notify)
        return (folder, CLIRunner(folder: folder))
    }

    static func entry(_ url: String, extra: String = "") -> String {
        "\n[[notify]]\nname = \"phone\"\nkind = \"webhook\"\nurl = \"\(url)\"\n\(extra)"
    }

    @Test("bad [[notify]] input is refused in one line naming the entry, and nothing is stored", arguments: [
        (#"events = ["transaction.new", "goal.reachd"]"#, #"notify[1].events 'goal.reachd' is not an event; accepted: "transaction.new""#),
        (#"events = []"#, "notify[1].events is empty"),
        (#"events = ["test"]"#, "notify[1].events 'test' is not an event"),
        (#"kind = "email""#, #"notify[1].kind 'email' is not accepted; use "webhook""#),
        (#"colour = "red""#, "notify[1].colour is not a known key"),
    ])
    func badEntries(_ line: String, _ message: String) async throws {
        let text = line.hasPrefix("kind") ? "\n[[notify]]\nname = \"phone\"\n\(line)\nurl = \"http://127.0.0.1:9/hook\"\n"
            : Self.entry("http://127.0.0.1:9/hook", extra: line + "\n")
        let (folder, cli) = Self.folder(text)
        let result = try await cli.run("notify", "log")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: config \(folder.file("walletwatch.toml")): \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("walletwatch.sqlite")), "nothing stored")
    }

    @Test("a URL that is not http(s), and a name used twice, are refused without echoing the URL")
    func badURLAndDuplicate() async throws {
        for url in ["ftp://example.org/hook?token=SECRET-IN-URL", "file:///etc/SECRET-IN-URL", "https:///SECRET-IN-URL"] {
            let (folder, cli) = Self.folder(Self.entry(url))
            let result = try await cli.run("notify", "log")
            #expect(result.status == 1 && result.stderr.contains("notify[1].url is not accepted; use an http:// or https:// URL"), "\(url): \(result.stderr)")
            #expect(!result.stderr.contains("SECRET-IN-URL"))
            #expect(!FileManager.default.fileExists(atPath: folder.file("walletwatch.sqlite")))
        }
        let (folder, cli) = Self.folder(Self.entry("http://127.0.0.1:9/a") + Self.entry("http://127.0.0.1:9/b"))
        let duplicate = try await cli.run("notify", "log")
        #expect(duplicate.status == 1 && duplicate.stderr.contains("notify[2].name 'phone' is used twice"), "\(duplicate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("walletwatch.sqlite")))
        // A config error after the database exists leaves its subscriptions as they were.
        folder.write("walletwatch.toml", "[rates]\nprovider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"60000\"\n"
                     + Self.entry("http://127.0.0.1:9/a", extra: "events = [\"goal.reached\"]\n"))
        #expect(try await cli.run("notify", "log").status == 0)
        folder.write("walletwatch.toml", "[rates]\nprovider = \"static\"\ncurrencies = [\"USD\"]\n[rates.static]\n\"BTC/USD\" = \"60000\"\n"
                     + Self.entry("http://127.0.0.1:9/a", extra: "events = [\"goal.reached\", \"nope\"]\n"))
        #expect(try await cli.run("asset", "add", "Cash", "--currency", "USD").status == 1)
        #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT target || ' ' || event FROM notify_subscriptions") == "phone goal.reached")
        #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM asset_rows") == "0")
    }

    @Test("notify test: delivered (exit 0), refused (exit 1, the reason in one line), unknown (65); notify log's fields")
    func notifyTest() async throws {
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let (folder, cli) = Self.folder(Self.entry(receiver.url, extra: "secret_file = \"hook.secret\"\n"))
        folder.write("hook.secret", "correct horse battery staple\n")
        chmod(folder.file("hook.secret"), 0o644)

        let ok = try await cli.run("notify", "test", "phone")
        #expect(ok.status == 0 && ok.stdout.hasPrefix("delivered test event "), "\(ok.stderr)")
        #expect(ok.stderr == "warning: notify 'phone' secret_file \(folder.file("hook.secret")) can be read by other users (mode 0644); run chmod 600 \(folder.file("hook.secret"))\n")
        let sent = try #require(receiver.received.first)
        #expect(sent.header("x-walletwatch-event") == "test")
        let openssl = try await ProcessRunner.run("/usr/bin/openssl", ["dgst", "-sha256", "-hmac", "correct horse battery staple", "-r"],
                                                  environment: [:], currentDirectory: "/", input: sent.text)
        #expect(sent.header("x-walletwatch-signature") == "sha256=" + (openssl.stdout.split(separator: " ").first.map(String.init) ?? "?"))

        receiver.answer(500)
        chmod(folder.file("hook.secret"), 0o600)
        let refused = try await cli.run("notify", "test", "phone")
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: notify test 'phone': not delivered: HTTP 500: {\"ok\":true}\n", "\(refused.stderr)")
        let unknown = try await cli.run("notify", "test", "tablet")
        #expect(unknown.status == 65 && unknown.stderr.contains("no [[notify]] entry named 'tablet' in the config; configured: phone"))

        let log = try #require(try await cli.run("notify", "log", "--json").objects)
        #expect(log.count == 2)
        #expect(log.allSatisfy { Set($0.keys) == ["id", "event", "target", "status", "attempts", "created_at", "delivered_at", "last_error"] })
        #expect(log.map { $0["status"] as? String } == ["delivered", "failed"])
        #expect(log[0]["id"] as? String == sent.header("x-walletwatch-delivery"))
        #expect(log[0]["delivered_at"] as? String == "2026-11-21T12:00:00.000Z" && log[0]["last_error"] is NSNull)
        #expect(log[1]["delivered_at"] is NSNull && log[1]["attempts"] as? Int == 1)
        let failed = try #require(try await cli.run("notify", "log", "--failed", "--json").objects)
        #expect(failed.map { $0["id"] as? String } == [log[1]["id"] as? String])
        let table = try await cli.run("notify", "log")
        #expect(table.status == 0 && table.stdout.contains("test") && table.stdout.contains("HTTP 500"))
        // The secret reaches no output and no argument list.
        for output in [ok.stdout, ok.stderr, refused.stderr, table.stdout] { #expect(!output.contains("battery")) }
    }

    @Test("SIGKILL between an ingest's commit and its delivery: the restarted daemon delivers it, once, signed")
    func killedBeforeDelivery() async throws {
        let demo = try await DemoSetup()
        let receiver = WebhookReceiver()
        let config = try String(contentsOfFile: demo.folder.file("walletwatch.toml"), encoding: .utf8)
        demo.folder.write("walletwatch.toml", config + "\n[[notify]]\nname = \"home\"\nkind = \"webhook\"\nurl = \"\(receiver.url)\"\nsecret_file = \"hook.secret\"\nevents = [\"transaction.new\"]\n")
        demo.folder.write("hook.secret", "k3y\n")
        chmod(demo.folder.file("hook.secret"), 0o600)
        let database = demo.folder.file("walletwatch.sqlite")
        let cli = demo.cli()
        #expect(try await cli.run("ingest").status == 0, "the first pass stores the history")

        // The receiver is down: the daemon's ingest commits the event, its delivery fails.
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
        _ = try await demo.simulator.addMovement(BarkdMovement(subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: 4242,
                                                               time: .init(createdAt: SimTime(unixSeconds: 1_795_261_000))), to: "ark")
        #expect(try await eventually(within: .seconds(60)) {
            try await sqlite(database, "SELECT status || ' ' || attempts FROM notify_deliveries") == "pending 1"
        }, "\(daemon.stderr)")
        daemon.send(SIGKILL)
        #expect(await daemon.exitStatus(within: .seconds(10)) != nil)
        #expect(receiver.received.isEmpty)
        let id = try await sqlite(database, "SELECT id FROM notify_events")

        // Up again, 30 s later by the clock: the restarted daemon sends it, and only once.
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let restarted = try BackgroundProcess(cli.binary, ["run"], environment: demo.cli("2026-11-21T12:00:31Z").environment,
                                              currentDirectory: demo.folder.path)
        #expect(await eventually(within: .seconds(30)) { receiver.acknowledged.count == 1 }, "\(restarted.stderr)")
        #expect(try await eventually(within: .seconds(10)) { try await sqlite(database, "SELECT status FROM notify_deliveries") == "delivered" })
        let event = try #require(receiver.acknowledged.first)
        #expect(event.header("x-walletwatch-delivery") == id && event.header("x-walletwatch-event") == "transaction.new")
        #expect(event.text.contains("\"amount\":4242"))
        let openssl = try await ProcessRunner.run("/usr/bin/openssl", ["dgst", "-sha256", "-hmac", "k3y", "-r"], environment: [:],
                                                  currentDirectory: "/", input: event.text)
        #expect(event.header("x-walletwatch-signature") == "sha256=" + (openssl.stdout.split(separator: " ").first.map(String.init) ?? "?"))
        restarted.send(SIGTERM)
        #expect(await restarted.exitStatus(within: .seconds(30)) == 0, "\(restarted.stderr)")
        #expect(receiver.received.count == 1, "never sent again")
    }

    /// Issue 21: with two or more targets only one was served (the daemon's loops shared one
    /// wake-up that held a single waiter), and SIGTERM left the daemon running.
    @Test("run with a healthy, a slow and a failing target: the healthy one gets every event in order, SIGTERM stops it within seconds")
    func threeTargets() async throws {
        let demo = try await DemoSetup()
        let healthy = WebhookReceiver(), slow = WebhookReceiver(), failing = WebhookReceiver()
        for receiver in [healthy, slow, failing] { try await receiver.start() }
        defer { Task { for receiver in [healthy, slow, failing] { await receiver.stop() } } }
        slow.answer(200, after: .seconds(120))
        failing.answer(500)
        let config = try String(contentsOfFile: demo.folder.file("walletwatch.toml"), encoding: .utf8)
        let targets = [("slow", slow), ("home", healthy), ("broken", failing)].map { name, receiver in
            "\n[[notify]]\nname = \"\(name)\"\nkind = \"webhook\"\nurl = \"\(receiver.url)\"\nevents = [\"transaction.new\"]\n"
        }
        demo.folder.write("walletwatch.toml", config + targets.joined())
        let database = demo.folder.file("walletwatch.sqlite")
        let cli = demo.cli()
        #expect(try await cli.run("ingest").status == 0, "the first pass stores the history")

        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
        for (index, sats) in [4201, 4202, 4203].enumerated() {
            _ = try await demo.simulator.addMovement(
                BarkdMovement(subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: Int64(sats),
                              time: .init(createdAt: SimTime(unixSeconds: 1_795_261_000 + Int64(index)))), to: "ark")
            // One movement a pass: barkd's notification wakes the daemon's ingest.
            #expect(try await eventually(within: .seconds(30)) {
                try await sqlite(database, "SELECT COUNT(*) FROM notify_deliveries WHERE target = 'home'") == "\(index + 1)"
            }, "\(daemon.stderr)")
        }
        #expect(await eventually(within: .seconds(20)) { healthy.acknowledged.count == 3 }, "the healthy target got \(healthy.received.count): \(daemon.stderr)")
        let order = try await sqlite(database, "SELECT e.id FROM notify_deliveries d JOIN notify_events e ON e.seq = d.event_seq WHERE d.target = 'home' ORDER BY e.seq")
        #expect(healthy.acknowledged.compactMap { $0.header("x-walletwatch-delivery") } == order.split(separator: "\n").map(String.init),
                "in the outbox's order")
        #expect(healthy.acknowledged.map { $0.text.contains("\"amount\":4201") } == [true, false, false])
        #expect(await eventually(within: .seconds(20)) { slow.arrived >= 1 && failing.received.count >= 1 }, "every target is tried")
        #expect(try await sqlite(database, "SELECT status || ' ' || attempts FROM notify_deliveries WHERE target = 'broken' ORDER BY event_seq LIMIT 1") == "pending 1")

        // The slow target's request is still open: SIGTERM must not wait for it.
        let stopping = ContinuousClock.now
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(10)) == 0, "\(daemon.stderr)")
        #expect(ContinuousClock.now - stopping < .seconds(5), "stopped after \(ContinuousClock.now - stopping)")
        #expect(!daemon.stderr.contains("CONTINUATION MISUSE"), "\(daemon.stderr)")
        #expect(try await sqlite(database, "SELECT status || ' ' || attempts FROM notify_deliveries WHERE target = 'slow' ORDER BY event_seq LIMIT 1") == "pending 0",
                "cut off by shutdown: not an attempt, still pending, sent again next time")
    }
}
