import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchSim

/// walletwatch against a real Electrum server: ElectrumX 2.0.0 (the Electrum developers' own,
/// installed by scripts/setup) indexing the simulator's regtest chain through its Bitcoin Core
/// face. The wallet is checked against the same chain through the simulator's Esplora face, and
/// its balance against the Bitcoin Dev Kit's, computed by BDK's own Electrum client: two
/// outside views.
@Suite("CLI: a wallet through a real ElectrumX", .serialized)
struct ElectrumXCLITests {
    /// The BIP84 account of "abandon ... about" on the test networks, as the Bitcoin Dev Kit
    /// writes it (bdkpython 3.1.1: `Descriptor.new_bip84(key, keychain, NetworkKind.TEST)`): BDK's
    /// wallet must be on regtest to agree on a genesis block with the regtest server.
    static let descriptors = [
        "wpkh([73c5da0a/84'/1'/0']tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M/0/*)#2ag6nxcd",
        "wpkh([73c5da0a/84'/1'/0']tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M/1/*)#mfdmwng4",
    ]

    /// A chain of 200 blocks: 60 used receive addresses, 30 change ones (spends), a deposit in the mempool.
    static let scenario = Scenario(
        tipHeight: 200,
        esplora: EsploraScenario(hdWallets: [HDWalletScenario(name: "w", descriptors: descriptors, network: "regtest", receive: Array(0..<60),
                                                              change: Array(0..<30), mempoolReceive: [60], seed: 8)]),
        bitcoin: BitcoinScenario())

    /// BDK's full scan of the wallet through the Electrum server at `url` (stop gap 20): its
    /// balance, confirmed and pending, and its transactions.
    static func bdkBalance(_ url: String) async throws -> (confirmed: Int, pending: Int, transactions: Int) {
        let python = (ElectrumXServer.executablePath as NSString).deletingLastPathComponent + "/python"
        let result = try await ProcessRunner.run(python, ["-c", """
            import json, sys
            import bdkpython as bdk
            receive, change, url = sys.argv[1:4]
            wallet = bdk.Wallet(bdk.Descriptor(receive, bdk.NetworkKind.TEST), bdk.Descriptor(change, bdk.NetworkKind.TEST),
                                bdk.Network.REGTEST, bdk.Persister.new_in_memory())
            client = bdk.ElectrumClient(url)
            wallet.apply_update(client.full_scan(wallet.start_full_scan().build(), 20, 500, False))
            balance = wallet.balance()
            print(json.dumps({"confirmed": balance.confirmed.to_sat(),
                              "pending": balance.trusted_pending.to_sat() + balance.untrusted_pending.to_sat(),
                              "transactions": len(wallet.transactions())}))
            """, descriptors[0], descriptors[1], url],
                                                 environment: [:], currentDirectory: "/")
        let object = try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Int], "BDK: \(result.stderr)")
        return (object["confirmed"] ?? -1, object["pending"] ?? -1, object["transactions"] ?? -1)
    }

    /// The README's path ("Watching through your own node"): `ssl://` with the node's
    /// certificate pinned, through a SOCKS5 proxy standing in for Tor's port, a webhook.
    @Test("through ElectrumX over pinned TLS and a SOCKS5 proxy: the same ledger as Esplora's view, the balance BDK computes, payments pushed to run and to a webhook")
    func realElectrumX() async throws {
        let simulator = try await Simulator.start(scenario: Self.scenario)
        let electrumx = try await ElectrumXServer.start(daemonURL: simulator.coreRPCURL, certificatePath: simulator.certificatePath,
                                                        keyPath: simulator.keyPath, indexedHeight: 200)
        let proxy = try await SOCKSProxy()
        let receiver = WebhookReceiver()
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let folder = TemporaryDirectory("walletwatch-electrumx")
        do {
            folder.write("walletwatch.toml", """
                [[sources]]
                name = "node"
                kind = "electrum"
                url = "\(electrumx.sslURL)"
                certificate_sha256 = "\(simulator.certificateSHA256)"
                proxy = "\(proxy.url)"
                asset = "Node wallet"
                network = "regtest"
                descriptors = ["\(Self.descriptors[0])", "\(Self.descriptors[1])"]
                [[sources]]
                name = "explorer"
                kind = "esplora"
                url = "\(simulator.esploraURL)"
                asset = "Explorer wallet"
                network = "regtest"
                descriptors = ["\(Self.descriptors[0])", "\(Self.descriptors[1])"]
                [rates]
                provider = "static"
                currencies = ["USD"]
                [rates.static]
                "BTC/USD" = "60000"
                [[notify]]
                name = "phone"
                url = "\(receiver.url)"
                events = ["transaction.new"]
                """)
            let cli = CLIRunner(folder: folder)
            let ingest = try await cli.run("ingest", "--json")
            #expect(ingest.status == 0, "\(ingest.stderr)")
            func ledger(_ asset: String) async throws -> [String] {
                let rows = try #require(try await cli.run("tx", "list", "--asset", asset, "--json").objects)
                return rows.map { "\($0["txid"]!) \($0["amount"]!) \($0["status"]!) \($0["date"]!)" }.sorted()
            }
            let electrumxAddress = electrumx.sslURL.replacingOccurrences(of: "ssl://", with: "")
            #expect(proxy.targets.contains(electrumxAddress), "the node's connection went through the proxy: \(proxy.targets)")
            let node = try await ledger("Node wallet")
            #expect(node.count == 60 + 30 + 1, "a deposit to each used receive address, a spend to each change one, the mempool deposit")
            #expect(node == (try await ledger("Explorer wallet")))

            // Every confirmed transaction was proven in a header ElectrumX sent, the chain
            // verified from regtest's genesis block (issue 26). A pass where nothing changed
            // asks ElectrumX for nothing but the handshake and the subscriptions.
            let database = folder.file("walletwatch.sqlite")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM transaction_proofs WHERE source = 'node'")
                    == (try await sqlite(database, "SELECT COUNT(*) FROM transactions t JOIN assets a ON a.id = t.asset_id WHERE a.name = 'Node wallet' AND t.status = 'confirmed'")))
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM block_headers WHERE source = 'node' AND length(raw) = 80") == "200")
            let scripts = try #require(Int(try await sqlite(database, "SELECT COUNT(*) FROM derived_addresses WHERE source = 'node'")))
            let again = try #require((try await cli.run("ingest", "--source", "node", "--json").object?["sources"] as? [[String: Any]])?.first)
            print("ElectrumX, a pass where nothing changed: \(again["requests"] ?? "-") requests, \(again["round_trips"] ?? "-") round trips, \(scripts) scripts")
            #expect(again["requests"] as? Int == 3 + scripts && again["round_trips"] as? Int == 2 && again["new"] as? Int == 0,
                    "server.version, blockchain.headers.subscribe, server.features, then one subscription a script: \(again)")
            let full = try await cli.run("ingest", "--source", "node", "--full", "--json")
            let fullEntry = (full.object?["sources"] as? [[String: Any]])?.first
            #expect(full.status == 0 && fullEntry?["updated"] as? Int == 0 && fullEntry?["new"] as? Int == 0,
                    "every header and proof asked again, nothing changed: \(full.stdout) \(full.stderr)")

            let balances = try #require(try await cli.run("balance", "--json").object?["assets"] as? [[String: Any]])
            let ours = try #require(balances.first { $0["name"] as? String == "Node wallet" })
            // BDK reads the simulator's own Electrum face, which answers as ElectrumX does (the
            // simulator's ElectrumXConformanceTests): through ElectrumX itself its hundred-odd
            // small round trips would each wait up to a second in ElectrumX's padding.
            let bdk = try await Self.bdkBalance(simulator.electrumTCPURL)
            #expect(ours["balance"] as? Int == bdk.confirmed && ours["pending"] as? Int == bdk.pending, "walletwatch \(ours), BDK \(bdk)")
            #expect(bdk.transactions == node.count)

            // run, told by ElectrumX of a mempool payment (it polls the simulator's mempool every 150 ms).
            let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: folder.path)
            defer { daemon.send(SIGKILL) }
            #expect(await eventually(within: .seconds(30)) { daemon.stderr.components(separatedBy: "electrum session open").count >= 2 },
                    "\(daemon.stderr)")
            #expect(await eventually(within: .seconds(30)) { daemon.stderr.components(separatedBy: "source=node").count >= 4 }, "\(daemon.stderr)")
            var latencies: [Duration] = []
            for index in 61..<64 {
                let deposit = try await simulator.hdDeposit(wallet: "w", index: index, value: 10_000 + Int64(index))
                let paid = ContinuousClock.now
                #expect(try await eventually(within: .seconds(10)) {
                    try await sqlite(folder.file("walletwatch.sqlite"), "SELECT status FROM transactions WHERE txid = '\(deposit.txid)'") == "pending"
                }, "\(daemon.stderr)")
                latencies.append(ContinuousClock.now - paid)
                #expect(await eventually(within: .seconds(2)) { receiver.acknowledged.contains { $0.text.contains(deposit.txid) } },
                        "no webhook for \(deposit.txid) within 2 s of its row")
            }
            // From the simulator taking the payment, through ElectrumX's next mempool poll (150 ms
            // here), its notification, walletwatch's pass, to the row: within SPEC 21's 2 seconds.
            print("ElectrumX push through the proxy: payment to stored row \(latencies)")
            #expect(latencies.sorted()[1] < .seconds(2), "\(latencies)")
            daemon.send(SIGTERM)
            #expect(await daemon.exitStatus(within: .seconds(15)) == 0, "\(daemon.stderr)")
            #expect(proxy.targets.allSatisfy { $0 == electrumxAddress }, "only the node's connections go through its proxy: \(proxy.targets)")
        } catch {
            Issue.record("ElectrumX's log:\n\(electrumx.logTail)")
            await proxy.stop()
            await electrumx.stop()
            await simulator.stop()
            throw error
        }
        await proxy.stop()
        await electrumx.stop()
        await simulator.stop()
    }
}
