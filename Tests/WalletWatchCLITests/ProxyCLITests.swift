import Foundation
import Testing
import TestSupport
import WalletWatchSim

/// SPEC.md section 22: with `[http] proxy` set, every connection goes through it (sources, the
/// rate provider, webhooks), and nothing leaves around it. A real SOCKS5 proxy (microsocks, as
/// Tor's port) sees each connection; once it is gone, every one of them fails rather than going
/// directly. An onion host without a proxy is refused before any connection.
@Suite("CLI: every connection through the proxy, none around it", .serialized)
struct ProxyCLITests {
    @Test("sources, rates and a webhook through microsocks; with the proxy down, each fails instead of going direct")
    func everythingThroughTheProxy() async throws {
        let demo = try await DemoSetup()
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let proxy = try await SOCKSProxy()
        let config = try String(contentsOfFile: demo.folder.file("walletwatch.toml"), encoding: .utf8)
        // no_proxy = "": even this machine's addresses go through the proxy (the default lists them).
        demo.folder.write("walletwatch.toml", config.replacingOccurrences(of: "[http]\n", with: "[http]\nproxy = \"\(proxy.url)\"\nno_proxy = \"\"\n")
                          + "\n[[notify]]\nname = \"phone\"\nurl = \"\(receiver.url)\"\n")
        let cli = demo.cli()
        let ingest = try await cli.run("ingest", "--json")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try await cli.run("rates", "--refresh").status == 0)
        #expect(try await cli.run("notify", "test", "phone").status == 0)
        let simPort = demo.simulator.port
        let seen = proxy.targets
        #expect(seen.filter { $0 == "127.0.0.1:\(simPort)" }.count >= 2, "the sources and the rate provider: \(seen)")
        #expect(seen.contains("127.0.0.1:\(receiver.port)"), "the webhook: \(seen)")

        await proxy.stop()
        let requestsBefore = await demo.simulator.requests().count
        let down = try await cli.run("ingest", "--json")
        #expect(down.status == 1)
        let sources = down.object?["sources"] as? [[String: Any]] ?? []
        #expect(sources.count == 2 && sources.allSatisfy { $0["ok"] as? Bool == false }, "\(down.stdout)")
        #expect(try await cli.run("rates", "--refresh").stderr.contains("\(SOCKSProxy.host):\(proxy.port)"), "the rate provider fails at the proxy")
        #expect(try await cli.run("notify", "test", "phone").status == 1)
        #expect(await demo.simulator.requests().count == requestsBefore, "nothing reached the simulator around the proxy")
        #expect(receiver.received.count == 1, "nothing reached the receiver around the proxy")
    }

    @Test("an onion host with no proxy is refused when the config is read: exit 65, nothing created")
    func onionWithoutProxy() async throws {
        let folder = TemporaryDirectory("walletwatch-onion")
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "tor-node"
            kind = "electrum"
            url = "ssl://abcdefghij234567abcdefghij234567abcdefghij234567abcdefgh.onion:50002"
            addresses = ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"]
            """)
        let result = try await CLIRunner(folder: folder).run("ingest")
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("error: config \(folder.file("walletwatch.toml")): sources[1] 'tor-node' is an onion service"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("walletwatch.sqlite")))
    }

    /// Issue 26: "connection refused (reported by proxy X) (through the proxy)" named the
    /// proxy twice in one line.
    @Test("an electrum server the proxy cannot reach: one line that names the proxy once")
    func proxyNamedOnce() async throws {
        let proxy = try await SOCKSProxy()
        let folder = TemporaryDirectory("walletwatch-proxy-once")
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "node"
            kind = "electrum"
            url = "tcp://127.0.0.1:\(unusedLoopbackPort())"
            network = "regtest"
            addresses = ["bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080"]
            [rates]
            provider = "static"
            currencies = ["USD"]
            [rates.static]
            "BTC/USD" = "60000"
            [http]
            proxy = "\(proxy.url)"
            no_proxy = ""
            timeout_seconds = 5
            """)
        let result = try await CLIRunner(folder: folder).run("ingest")
        await proxy.stop()
        #expect(result.status == 1)
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("source 'node'") }.map(String.init), "\(result.stderr)")
        #expect(line.contains("connection refused (reported by proxy \(proxy.url))"), "\(line)")
        #expect(line.components(separatedBy: "proxy").count == 2, "the proxy is named once: \(line)")
    }
}
