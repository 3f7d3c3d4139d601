import Foundation
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSim

/// Arkade through the built binary (SPEC.md section 27): the config refuses an Ark address of
/// another network, and the daemon is pushed Fulmine's and arkd's changes, which reach `watch`
/// within 2 seconds, also after a stream was lost.
@Suite("CLI: Arkade wallets and watched Ark addresses", .serialized)
struct ArkadeCLITests {
    /// The generator point's x, a valid x-only key.
    static let key = Hex.decode("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")!

    final class Setup: @unchecked Sendable {
        let simulator: Simulator
        let folder = TemporaryDirectory("walletwatch-arkade")
        let watched: String

        init() async throws {
            simulator = try await Simulator.start(scenario: Scenario(arkade: ArkadeScenario(
                network: "bitcoin", fulmineWallets: ["arkade"], receipts: [ArkadeReceipt(wallet: "arkade", amount: 120_000, batch: true)])))
            watched = await simulator.arkadeAddress(ofKey: ArkadeCLITests.key)
            try await simulator.arkadeReceive(address: watched, amount: 50_000, batch: true)
            configure(addresses: [watched])
        }

        func configure(addresses: [String], network: String = "bitcoin") {
            folder.write("walletwatch.toml", """
                [[sources]]
                name = "arkade"
                kind = "fulmine"
                url = "\(simulator.fulmineURL("arkade"))"
                asset = "Arkade wallet"

                [[sources]]
                name = "ark-watch"
                kind = "arkd"
                url = "\(simulator.arkdURL)"
                network = "\(network)"
                addresses = [\(addresses.map { "\"\($0)\"" }.joined(separator: ", "))]
                asset = "Ark savings"
                interval_seconds = 3600

                [rates]
                provider = "static"
                currencies = ["USD"]
                [rates.static]
                "BTC/USD" = "60000"
                """)
        }

        func cli() -> CLIRunner { CLIRunner(folder: folder) }

        deinit {
            let simulator = self.simulator
            Task { await simulator.stop() }
        }
    }

    @Test("an Ark address of another network is refused when the config is read: exit 65, naming the source")
    func otherNetworkAddress() async throws {
        let setup = try await Setup()
        let testnet = ArkAddress.encode(network: .testnet, signerKey: Self.key, vtxoTaprootKey: Self.key)
        setup.configure(addresses: [setup.watched, testnet])
        let refused = try await setup.cli().run("ingest")
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("source 'ark-watch'") && refused.stderr.contains("test network's (tark1...) Ark address"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        let database = setup.folder.file("walletwatch.sqlite")
        if FileManager.default.fileExists(atPath: database) {
            #expect(try await sqlite(database, "SELECT count(*) FROM transactions") == "0")
        }

        setup.configure(addresses: ["tark1qqellv77udfmr20tun8dvju5vgudpf9vxe8jwhthrkn26fz96pawqfdy8nk05rsmrf8h94j26905e7n6sng8y059z8ykn2j5xcuw4xt846qj6y"])
        let broken = try await setup.cli().run("ingest")
        #expect(broken.status == 65 && broken.stderr.contains("checksum"), "\(broken.stderr)")
    }

    @Test("run is pushed Fulmine's and arkd's changes: watch shows each within 2 s; a lost stream is reopened and compared again")
    func pushedChanges() async throws {
        let setup = try await Setup()
        let cli = setup.cli()
        let ingest = try await cli.run("ingest")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: setup.folder.path)
        defer { daemon.send(SIGKILL) }
        #expect(await eventually(within: .seconds(30)) { await setup.simulator.arkadeStreamCount() == 2 }, "\(daemon.stderr)")
        let watcher = try BackgroundProcess(cli.binary, ["watch"], environment: cli.environment, currentDirectory: setup.folder.path)
        defer { watcher.send(SIGKILL) }
        #expect(await eventually(within: .seconds(30)) { watcher.stdout.contains("Arkade wallet") && watcher.stdout.contains("Ark savings") },
                "the first frame: \(watcher.stdout)")

        // The arkd source's interval is an hour and Fulmine's a minute: only a push can be this quick.
        try await setup.simulator.arkadeReceive(wallet: "arkade", amount: 777)
        let paid = ContinuousClock.now
        #expect(await eventually(within: .seconds(2)) { watcher.stdout.contains("0.00120777") }, "Fulmine's push: \(daemon.stderr)")
        #expect(ContinuousClock.now - paid < .seconds(2))
        #expect(daemon.stderr.contains("Arkade pushed a change; ingesting now") && daemon.stderr.contains("source=arkade"), "\(daemon.stderr)")

        try await setup.simulator.arkadeReceive(address: setup.watched, amount: 3_000)
        let received = ContinuousClock.now
        #expect(await eventually(within: .seconds(2)) { watcher.stdout.contains("0.00053") }, "arkd's push: \(daemon.stderr)")
        #expect(ContinuousClock.now - received < .seconds(2))
        #expect(daemon.stderr.components(separatedBy: "Arkade pushed a change").count >= 3, "\(daemon.stderr)")

        // Both streams end; what arrives before they are open again is found by the pass that
        // follows their reopening.
        #expect(await setup.simulator.endArkadeStreams() == 2)
        try await setup.simulator.arkadeReceive(address: setup.watched, amount: 4_000)
        #expect(await eventually(within: .seconds(20)) { watcher.stdout.contains("0.00057") }, "after the reconnect: \(daemon.stderr)")
        #expect(daemon.stderr.contains("notification stream lost; reopening"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("the subscription stream ended") && daemon.stderr.contains("the notification stream ended"), "\(daemon.stderr)")

        let rows = try await sqlite(setup.folder.file("walletwatch.sqlite"), "SELECT count(*) FROM transactions WHERE txid LIKE 'arkd:ark-watch:%'")
        #expect(rows == "3")
        watcher.send(SIGTERM)
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(15)) == 0, "\(daemon.stderr)")
    }

    @Test("the demo's Arkade sources (Config/demo-arkade.toml) ingest the demo scenario's Arkade coins without a warning")
    func demoConfig() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let simulator = try await Simulator.start(scenario: try Scenario.load(from: root.appendingPathComponent("Config/demo-scenario.json").path))
        defer { Task { await simulator.stop() } }
        let folder = TemporaryDirectory("walletwatch-arkade-demo")
        let template = try String(contentsOf: root.appendingPathComponent("Config/demo-arkade.toml"), encoding: .utf8)
        folder.write("walletwatch.toml", template.replacingOccurrences(of: "{{SIM}}", with: simulator.baseURL) + """

            [rates]
            provider = "static"
            currencies = ["USD"]
            [rates.static]
            "BTC/USD" = "60000"
            """)
        let ingest = try await CLIRunner(folder: folder).run("ingest")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(!ingest.stderr.contains("warning"), "\(ingest.stderr)")
        let database = folder.file("walletwatch.sqlite")
        #expect(try await sqlite(database, "SELECT count(*) FROM transactions WHERE txid LIKE 'fulmine:arkade:%'") == "2")
        #expect(try await sqlite(database, "SELECT count(*) FROM transactions WHERE txid LIKE 'arkd:ark-watch:%'") == "2")
        #expect(try await sqlite(database, "SELECT count(*) FROM vtxos") == "4")
    }
}
