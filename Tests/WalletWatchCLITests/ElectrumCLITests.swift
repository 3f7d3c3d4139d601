import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// A wallet watched through "your own node" (SPEC.md sections 21 and 22), the built binary
/// against the simulator's Electrum server: TLS with the node's certificate pinned, the
/// refusal that tells how to pin it, Tor's part played by a real SOCKS5 proxy (microsocks),
/// and the daemon told of a payment by the server.
@Suite("CLI: a wallet through your own node's Electrum server", .serialized)
struct ElectrumCLITests {
    /// The BIP84 account of the test networks, and the simulator's real regtest chain with its
    /// history (as the engine's tests).
    static let descriptors = RegtestWallet.descriptors

    final class Node: @unchecked Sendable {
        let simulator: Simulator
        let folder = TemporaryDirectory("walletwatch-node")

        init() async throws {
            simulator = try await Simulator.start(scenario: Scenario(
                tipHeight: 150,
                esplora: EsploraScenario(hdWallets: [HDWalletScenario(name: "w", descriptors: ElectrumCLITests.descriptors, network: "regtest",
                                                                      receive: [0, 1, 2, 5], change: [0, 1], seed: 5)]),
                bitcoin: BitcoinScenario()))
        }

        /// A config of one electrum source at `url`, with `extra` lines in the source and `http` in [http].
        func configure(url: String, source extra: String = "", http: String = "", notify: String = "") {
            folder.write("walletwatch.toml", """
                [[sources]]
                name = "node"
                kind = "electrum"
                url = "\(url)"
                asset = "Hardware wallet"
                network = "regtest"
                descriptors = ["\(ElectrumCLITests.descriptors[0])", "\(ElectrumCLITests.descriptors[1])"]
                \(extra)
                [rates]
                provider = "static"
                currencies = ["USD"]
                [rates.static]
                "BTC/USD" = "60000"
                [http]
                timeout_seconds = 10
                \(http)
                \(notify)
                """)
        }

        func cli(_ now: String = "2026-11-21T12:00:00Z") -> CLIRunner { CLIRunner(folder: folder, now: now) }

        deinit {
            let simulator = self.simulator
            Task { await simulator.stop() }
        }
    }

    /// What OpenSSL reads as the fingerprint of the simulator's certificate file.
    static func opensslFingerprint(_ path: String) async throws -> String {
        let result = try await ProcessRunner.run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", path], environment: [:],
                                                 currentDirectory: "/")
        // "sha256 Fingerprint=AB:CD:..." (OpenSSL 3 writes the digest's name in lower case).
        return String(result.stdout.split(separator: "=").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a self-signed node: refused with its fingerprint (OpenSSL's) and the line that pins it; pinned, the wallet is ingested")
    func pinnedCertificate() async throws {
        let node = try await Node()
        let fingerprint = try await Self.opensslFingerprint(node.simulator.certificatePath)
        #expect(fingerprint.count == 95, "32 bytes in hex with colons: \(fingerprint)")
        node.configure(url: node.simulator.electrumTLSURL)
        let refused = try await node.cli().run("ingest")
        #expect(refused.status == 1)
        let hex = fingerprint.replacingOccurrences(of: ":", with: "").lowercased()
        #expect(refused.stderr.contains("SHA-256 \(fingerprint)") && refused.stderr.contains("certificate_sha256 = \"\(hex)\""), "\(refused.stderr)")
        #expect(try await sqlite(node.folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM transactions") == "0")
        let doctorRefused = try await node.cli().run("doctor", "--json")
        let check = try #require((doctorRefused.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "source node" })
        #expect(check["ok"] as? Bool == false && (check["detail"] as? String)?.contains(hex) == true, "\(check)")

        // Pinned with the colons OpenSSL prints: accepted, and the wallet is in.
        node.configure(url: node.simulator.electrumTLSURL, source: "certificate_sha256 = \"\(fingerprint)\"")
        let ingest = try await node.cli().run("ingest", "--json")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let entry = try #require((ingest.object?["sources"] as? [[String: Any]])?.first)
        #expect(entry["new"] as? Int == 6 && (entry["requests"] as? Int ?? 0) > 40 && (entry["round_trips"] as? Int ?? 0) >= 4, "\(entry)")
        let doctor = try await node.cli().run("doctor", "--json")
        let detail = (doctor.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "source node" }?["detail"] as? String ?? ""
        #expect(detail.contains("answers as walletwatch-sim") && detail.contains("Electrum protocol 1.") && detail.contains("the pinned one")
                && detail.contains("route: direct"), "\(detail)")

        // Another certificate than the pinned one: refused before anything is sent.
        node.configure(url: node.simulator.electrumTLSURL, source: "certificate_sha256 = \"\(String(repeating: "ab", count: 32))\"")
        let wrong = try await node.cli().run("ingest")
        #expect(wrong.status == 1 && wrong.stderr.contains("not the pinned") && wrong.stderr.contains("nothing was sent"), "\(wrong.stderr)")
    }

    @Test("through a SOCKS5 proxy (microsocks, as Tor's port): the server's name goes to the proxy, doctor names the route")
    func throughAProxy() async throws {
        let node = try await Node()
        let proxy = try await SOCKSProxy()
        // localhost instead of 127.0.0.1: a name, which socks5h hands to the proxy to resolve;
        // no_proxy = "" so that even this machine's names go through it.
        let url = node.simulator.electrumTCPURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        node.configure(url: url, http: "proxy = \"\(proxy.url)\"\nno_proxy = \"\"")
        let ingest = try await node.cli().run("ingest", "--json")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let serverPort = url.split(separator: ":").last.map(String.init) ?? "?"
        #expect(proxy.targets.contains("localhost:\(serverPort)"), "microsocks saw: \(proxy.targets)")
        let doctor = try await node.cli().run("doctor", "--json")
        let detail = (doctor.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "source node" }?["detail"] as? String ?? ""
        #expect(detail.contains("route: through \(proxy.url) (the proxy answers)"), "\(detail)")

        // The proxy down: the source fails and doctor says the proxy does not answer.
        await proxy.stop()
        let down = try await node.cli().run("doctor", "--json")
        let failed = (down.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "source node" }
        #expect(failed?["ok"] as? Bool == false)
        #expect((failed?["detail"] as? String)?.contains("the proxy does not answer") == true, "\(String(describing: failed))")
    }

    /// SPEC.md section 21: a payment that enters the server's mempool shows, and its webhook is
    /// sent, within 2 seconds; a connection lost meanwhile is opened again and nothing is missed.
    @Test("run is told of a payment: stored and its webhook sent within 2 s; after a dropped connection it catches up")
    func pushedPayment() async throws {
        let node = try await Node()
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        node.configure(url: node.simulator.electrumTCPURL,
                       notify: "[[notify]]\nname = \"phone\"\nurl = \"\(receiver.url)\"\nevents = [\"transaction.new\"]")
        let cli = node.cli()
        let database = node.folder.file("walletwatch.sqlite")
        #expect(try await cli.run("ingest").status == 0, "the first pass stores the history")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: node.folder.path)
        defer { daemon.send(SIGKILL) }
        #expect(await eventually(within: .seconds(30)) { daemon.stderr.contains("electrum session open") }, "\(daemon.stderr)")
        // The session's first pass, which subscribes every address, has run.
        #expect(await eventually(within: .seconds(30)) { daemon.stderr.components(separatedBy: "ingested").count >= 3 }, "\(daemon.stderr)")

        let deposit = try await node.simulator.hdDeposit(wallet: "w", index: 3, value: 21_000)
        let paid = ContinuousClock.now
        #expect(try await eventually(within: .seconds(2)) {
            try await sqlite(database, "SELECT status FROM transactions WHERE txid = '\(deposit.txid)'") == "pending"
        }, "not stored within 2 s: \(daemon.stderr)")
        #expect(await eventually(within: .seconds(2)) { receiver.acknowledged.contains { $0.text.contains(deposit.txid) } },
                "no webhook within 2 s")
        #expect(ContinuousClock.now - paid < .seconds(4))

        // The connection drops when the next pass asks for a history; the daemon opens another,
        // compares every status, and the payment made meanwhile is stored.
        try await node.simulator.addElectrumFault(.drop(after: 0), on: "blockchain.scripthash.get_history", times: 1)
        let second = try await node.simulator.hdDeposit(wallet: "w", index: 4, value: 22_000)
        #expect(try await eventually(within: .seconds(30)) {
            try await sqlite(database, "SELECT status FROM transactions WHERE txid = '\(second.txid)'") == "pending"
        }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("electrum session lost; reconnecting"), "\(daemon.stderr)")
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(15)) == 0, "\(daemon.stderr)")
    }
}
