import Foundation
import Testing
import TestSupport
import WalletWatchSim

/// HD wallets end to end (SPEC.md sections 15 and 16): the built binary against the simulator's
/// HD chains, over real HTTP, into a real SQLite file. Expected figures come from the explorer's
/// own address routes (``HDWorld/truth(wallet:receive:change:)``), never from walletwatch.
@Suite("CLI: HD wallets", .serialized)
struct HDWalletCLITests {
    static func source(_ name: String, asset: String, keys: String, extra: String = "") -> String {
        """
        [[sources]]
        name = "\(name)"
        kind = "esplora"
        url = "{{ESPLORA}}"
        asset = "\(asset)"
        \(keys)
        \(extra)
        """
    }

    /// One source's report of `ingest --json`.
    static func ingest(_ world: HDWorld, _ now: String, _ arguments: String...) async throws -> [String: Any] {
        let result = try await world.cli(now).run(["ingest", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require((result.object?["sources"] as? [[String: Any]])?.first)
    }

    /// `asset show NAME --json`.
    static func asset(_ world: HDWorld, _ name: String) async throws -> [String: Any] {
        try #require(try await world.cli().run("asset", "show", name, "--json").object)
    }

    /// The asset's transactions by txid: amount and status.
    static func transactions(_ world: HDWorld, _ asset: String) async throws -> [String: (amount: Int64, status: String)] {
        let list = try #require(try await world.cli().run("tx", "list", "--asset", asset, "--json").objects)
        return Dictionary(uniqueKeysWithValues: list.map { ($0["txid"] as! String, (Int64($0["amount"] as! Int), $0["status"] as! String)) })
    }

    static func addresses(_ world: HDWorld, _ asset: String, _ arguments: String...) async throws -> (rows: [[String: Any]], stderr: String) {
        let result = try await world.cli().run(["asset", "addresses", asset, "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return (try #require(result.objects), result.stderr)
    }

    @Test("a Sparrow wpkh account with history past the first window and on change: balance, amounts, requests")
    func sparrowAccount() async throws {
        let receive = [0, 1, 2, 3, 19, 38]
        let change = [0, 1, 15, 30]
        let world = try await HDWorld(
            [HDWalletScenario(name: "sparrow", descriptors: [VectorKeys.sparrowDescriptor], receive: receive, change: change,
                              mempoolReceive: [4], seed: 21)],
            sources: Self.source("cold", asset: "Cold wallet", keys: "descriptors = [\"\(VectorKeys.sparrowDescriptor)\"]"))
        let first = try await Self.ingest(world, "2026-11-21T12:00:00Z")
        // 6 deposits, 4 spends with change, 1 deposit in the mempool.
        #expect(first["new"] as? Int == 11)
        let requests = await world.takeRequests()
        let truth = try await world.truth(wallet: "sparrow", receive: receive + [4], change: change)
        let asset = try await Self.asset(world, "Cold wallet")
        #expect(asset["balance"] as? Int == Int(truth.confirmed))
        #expect(asset["pending"] as? Int == Int(truth.pending) && truth.pending > 0)
        let stored = try await Self.transactions(world, "Cold wallet")
        #expect(stored.mapValues(\.amount) == truth.amounts)
        #expect(Set(stored.filter { $0.value.status == "confirmed" }.keys) == truth.confirmedTxids)
        // Change went to the wallet's own addresses: no spend shows more than it paid out.
        #expect(stored.values.filter { $0.amount < 0 }.count == 4)

        // The receive chain reaches 38 through 19 (each within 20 of the last used one) and
        // ends 20 past it; the change chain reaches 30 through 15. Every address was seen for
        // the first time: one history request each, nothing else.
        let window: Int = (38 + 21) + (30 + 21)
        #expect(requests.count == window)
        #expect(requests.allSatisfy { $0.path.hasPrefix("/esplora/scripthash/") && $0.path.hasSuffix("/txs") })
        let rows = try await Self.addresses(world, "Cold wallet").rows
        #expect(rows.filter { $0["chain"] as? String == "receive" }.compactMap { $0["index"] as? Int } == Array(0...58))
        #expect(rows.filter { $0["chain"] as? String == "change" }.compactMap { $0["index"] as? Int } == Array(0...50))
        #expect(rows.filter { ($0["tx_count"] as? Int ?? 0) > 0 }.count == receive.count + change.count + 1)
        #expect(rows.reduce(0) { $0 + ($1["balance"] as? Int ?? 0) } == Int(truth.confirmed))

        // Nothing changed: every address is asked for its stats once; only the one with a
        // mempool transaction has its history read again (so it is not taken for dropped).
        _ = await world.takeRequests()
        let again = try await Self.ingest(world, "2026-11-21T12:05:00Z")
        #expect(again["new"] as? Int == 0 && again["updated"] as? Int == 0 && again["dropped"] as? Int == 0)
        let quiet = await world.takeRequests()
        #expect(quiet.count == window + 1)
        #expect(quiet.filter { $0.path.hasSuffix("/txs") }.count == 1)
        #expect(again["requests"] as? Int == quiet.count)
    }

    @Test("a use near the window's end grows it; a transfer to the wallet's own change shows only the fee; --full rescans")
    func windowAndChange() async throws {
        let world = try await HDWorld(
            [HDWalletScenario(name: "w", xpub: VectorKeys.bip84Zpub, receive: [0, 1], change: [0], seed: 5)],
            sources: Self.source("cold", asset: "Cold", keys: "xpub = \"\(VectorKeys.bip84Zpub)\""))
        _ = try await Self.ingest(world, "2026-11-21T12:00:00Z")
        let tip = try await world.tip()
        _ = await world.takeRequests()
        let deposit = try await world.simulator.hdDeposit(wallet: "w", index: 15, value: 123_456, height: tip + 1)
        let grown = try await Self.ingest(world, "2026-11-21T12:10:00Z")
        #expect(grown["new"] as? Int == 1)
        // 22 + 21 stats, receive 15's history (its count moved), and receive 22 to 35 for the first time.
        let requests = await world.takeRequests()
        let expected: Int = 43 + 1 + 14
        #expect(requests.count == expected, "\(requests.map(\.path))")
        let rows = try await Self.addresses(world, "Cold").rows
        #expect(rows.filter { $0["chain"] as? String == "receive" }.count == 36)
        #expect(try await Self.transactions(world, "Cold")[deposit.txid]?.amount == 123_456)

        let transfer = try await world.simulator.hdSpend(wallet: "w", pay: 0, changeIndex: 3, height: tip + 2)
        #expect(try await Self.ingest(world, "2026-11-21T12:20:00Z")["new"] as? Int == 1)
        #expect(try await Self.transactions(world, "Cold")[transfer.txid]?.amount == -transfer.fee)
        let truth = try await world.truth(wallet: "w", receive: [0, 1, 15], change: [0, 3])
        #expect(try await Self.asset(world, "Cold")["balance"] as? Int == Int(truth.confirmed))
        #expect(try await Self.transactions(world, "Cold").mapValues(\.amount) == truth.amounts)

        // --full: every address's whole history again, and the tip; nothing new or changed.
        _ = await world.takeRequests()
        let full = try await Self.ingest(world, "2026-11-21T12:30:00Z", "--full")
        #expect(full["new"] as? Int == 0 && full["updated"] as? Int == 0)
        let rescan = await world.takeRequests()
        // Receive 0 to 35; change 0 to 23 (3, used by the transfer, plus 20).
        let histories: Int = 36 + 24
        #expect(rescan.filter { $0.path.hasSuffix("/txs") }.count == histories)
        #expect(rescan.contains { $0.path == "/esplora/blocks/tip/height" })
    }

    @Test("a taproot account, a 2-of-3 wsh(sortedmulti) and a SLIP-132 ypub wallet each show the explorer's balance and amounts")
    func scriptTypes() async throws {
        let multisig = "wsh(sortedmulti(2,\(VectorKeys.cosigners.map { "\($0)/<0;1>/*" }.joined(separator: ","))))"
        let world = try await HDWorld(
            [HDWalletScenario(name: "tr", descriptors: ["tr(\(VectorKeys.bip86Xpub)/<0;1>/*)"], receive: [0, 2, 7], change: [1], seed: 1),
             HDWalletScenario(name: "multi", descriptors: [multisig], receive: [0, 1, 20], change: [0, 4], seed: 2),
             HDWalletScenario(name: "nested", xpub: VectorKeys.slip132Ypub, receive: [0, 3], change: [0], seed: 3)],
            sources: Self.source("tr", asset: "Taproot", keys: "descriptors = [\"tr(\(VectorKeys.bip86Xpub)/<0;1>/*)\"]")
                + Self.source("multi", asset: "Vault", keys: "descriptors = [\"\(multisig)\"]")
                + Self.source("nested", asset: "Nested", keys: "xpub = \"\(VectorKeys.slip132Ypub)\""))
        let result = try await world.cli().run("ingest", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        for (wallet, asset, receive, change) in [("tr", "Taproot", [0, 2, 7], [1]), ("multi", "Vault", [0, 1, 20], [0, 4]), ("nested", "Nested", [0, 3], [0])] {
            let truth = try await world.truth(wallet: wallet, receive: receive, change: change)
            #expect(try await Self.asset(world, asset)["balance"] as? Int == Int(truth.confirmed), "\(asset)")
            #expect(try await Self.transactions(world, asset).mapValues(\.amount) == truth.amounts, "\(asset)")
            #expect(truth.amounts.count == receive.count + change.count)
        }
        // The addresses are the BIPs' own: BIP86's first receive address, SLIP-132's ypub's.
        let taproot = try await Self.addresses(world, "Taproot").rows
        #expect(taproot.first?["address"] as? String == "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr")
        #expect(try await Self.addresses(world, "Nested").rows.first?["address"] as? String == "37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf")
    }

    @Test("--deep finds used addresses past the gap and names the limit that would reach them; raising it brings them in")
    func deepScan() async throws {
        let keys = "xpub = \"\(VectorKeys.bip84Zpub)\""
        let world = try await HDWorld([HDWalletScenario(name: "w", xpub: VectorKeys.bip84Zpub, receive: [0, 1, 35], seed: 8)],
                                      sources: Self.source("cold", asset: "Cold", keys: keys))
        _ = try await Self.ingest(world, "2026-11-21T12:00:00Z")
        let truth = try await world.truth(wallet: "w", receive: [0, 1, 35], change: [])
        let beyond = try await world.simulator.hdAddress(wallet: "w", index: 35)
        let inWindow = try await Self.transactions(world, "Cold")
        #expect(inWindow.count == 2, "index 35 is 34 past index 1: the default gap limit of 20 does not reach it")

        let plain = try await Self.addresses(world, "Cold").rows
        #expect(!plain.contains { $0["address"] as? String == beyond })
        let (rows, stderr) = try await Self.addresses(world, "Cold", "--deep", "30")
        let found = try #require(rows.first { $0["address"] as? String == beyond })
        #expect(found["beyond_gap"] as? Bool == true && found["index"] as? Int == 35 && found["chain"] as? String == "receive")
        #expect((found["tx_count"] as? Int ?? 0) > 0)
        #expect(rows.filter { $0["beyond_gap"] as? Bool == true }.count == 1)
        // The receive chain first, by index, its find after its window; then the change chain.
        #expect(Array(rows.compactMap { $0["index"] as? Int }.prefix(23)) == Array(0...21) + [35])
        #expect(rows[23]["chain"] as? String == "change" && rows[23]["index"] as? Int == 0)
        #expect(stderr.contains("warning: ") && stderr.contains("gap_limit = 20") && stderr.contains("gap_limit = 34"), "\(stderr)")
        #expect(try await world.cli().run("asset", "addresses", "Cold", "--deep", "0").status == 64)

        world.writeConfig(sources: Self.source("cold", asset: "Cold", keys: keys, extra: "gap_limit = 34"))
        _ = try await Self.ingest(world, "2026-11-21T12:10:00Z")
        #expect(try await Self.transactions(world, "Cold").mapValues(\.amount) == truth.amounts)
        #expect(try await Self.asset(world, "Cold")["balance"] as? Int == Int(truth.confirmed))
    }

    @Test("Rule 1b: a confirmed deposit to a goal's address goes to that goal once, also on a shared wallet; a cancelled goal's does not")
    func goalDepositAddress() async throws {
        let world = try await HDWorld([HDWalletScenario(name: "w", xpub: VectorKeys.bip84Zpub, receive: [0, 1], change: [0], seed: 13)],
                                      sources: Self.source("cold", asset: "Cold", keys: "xpub = \"\(VectorKeys.bip84Zpub)\""))
        let cli = world.cli()
        _ = try await Self.ingest(world, "2026-11-21T12:00:00Z")
        for goal in ["House", "Car", "Trip & Fun", "Boat"] {
            #expect(try await cli.run("goal", "add", goal, "--currency", "BTC", "--target", "1").status == 0)
        }
        // Shared between two goals: Rule 1 would leave a deposit unallocated.
        #expect(try await cli.run("allocate", "Cold", "House=50%", "Car=25%").status == 0)

        let reserved = try #require(try await cli.run("goal", "address", "Trip & Fun", "--asset", "Cold", "--json").object)
        #expect(reserved["goal"] as? String == "Trip & Fun" && reserved["asset"] as? String == "Cold")
        // The first receive index above the highest used one (1).
        #expect(reserved["index"] as? Int == 2)
        let address = try #require(reserved["address"] as? String)
        #expect(address == (try await world.simulator.hdAddress(wallet: "w", index: 2)))
        #expect(reserved["uri"] as? String == "bitcoin:\(address)?label=Trip%20%26%20Fun")
        #expect(Set(reserved.keys) == ["goal", "asset", "address", "index", "uri"])
        // Shown again while unused; another goal gets the next one.
        #expect(try await cli.run("goal", "address", "Trip & Fun", "--asset", "Cold", "--json").object?["address"] as? String == address)
        let boat = try #require(try await cli.run("goal", "address", "Boat", "--asset", "Cold", "--json").object)
        #expect(boat["index"] as? Int == 3)

        let tip = try await world.tip()
        let deposit = try await world.simulator.hdDeposit(wallet: "w", index: 2, value: 400_000)
        let pending = try await Self.ingest(world, "2026-11-21T12:10:00Z")
        #expect(pending["new"] as? Int == 1 && pending["auto_allocated"] as? Int == 0, "nothing is allocated before it confirms")
        try await world.simulator.confirmEsploraTransaction(deposit.txid, height: tip + 1)
        let confirmed = try await Self.ingest(world, "2026-11-21T12:20:00Z")
        #expect(confirmed["updated"] as? Int == 1 && confirmed["auto_allocated"] as? Int == 1)
        let allocations = try #require(try await Self.asset(world, "Cold")["allocations"] as? [[String: Any]])
        #expect(allocations.first { $0["goal"] as? String == "Trip & Fun" }?["amount"] as? Int == 400_000)
        // Exactly once: more passes (and a full rescan) change nothing.
        #expect(try await Self.ingest(world, "2026-11-21T12:30:00Z")["auto_allocated"] as? Int == 0)
        #expect(try await Self.ingest(world, "2026-11-21T12:40:00Z", "--full")["auto_allocated"] as? Int == 0)
        let history = try #require(try await cli.run("asset", "history", "Cold", "--json").objects)
        let rule1b = history.filter { $0["reason"] as? String == "rule1b" }
        #expect(rule1b.count == 1 && rule1b.first?["txid"] as? String == deposit.txid && rule1b.first?["amount"] as? Int == 400_000)
        // Used now: the goal's next address is a fresh one, above the highest used index.
        #expect(try await cli.run("goal", "address", "Trip & Fun", "--asset", "Cold", "--json").object?["index"] as? Int == 4)

        // A cancelled goal's reservation no longer applies: its deposit stays unallocated.
        #expect(try await cli.run("goal", "cancel", "Boat").status == 0)
        let late = try await world.simulator.hdDeposit(wallet: "w", index: 3, value: 77_000, height: tip + 2)
        let after = try await Self.ingest(world, "2026-11-21T12:50:00Z")
        #expect(after["new"] as? Int == 1 && after["auto_allocated"] as? Int == 0)
        #expect(try await Self.transactions(world, "Cold")[late.txid]?.amount == 77_000)
        #expect(try await cli.run("asset", "history", "Cold", "--json").objects?.filter { $0["reason"] as? String == "rule1b" }.count == 1)

        // Refusals: an inactive goal, a goal that does not exist, an asset that is no HD wallet.
        #expect(try await cli.run("goal", "address", "Boat", "--asset", "Cold").status == 65)
        #expect(try await cli.run("goal", "address", "Nope", "--asset", "Cold").status == 65)
        #expect(try await cli.run("asset", "add", "Cash", "--currency", "BTC").status == 0)
        let refused = try await cli.run("goal", "address", "House", "--asset", "Cash")
        #expect(refused.status == 65 && refused.stderr.hasPrefix("error: ") && refused.stderr.contains("not an HD wallet"))
        #expect(try await cli.run("asset", "addresses", "Cash").status == 65)
        #expect(try await cli.run("asset", "addresses", "Nope").status == 65)
    }

    @Test("at most [http] concurrency requests are in flight")
    func concurrencyBound() async throws {
        let world = try await HDWorld([HDWalletScenario(name: "w", xpub: VectorKeys.bip84Zpub, receive: [0, 5], change: [0], seed: 3)],
                                      sources: Self.source("cold", asset: "Cold", keys: "xpub = \"\(VectorKeys.bip84Zpub)\""),
                                      extra: "[http]\nconcurrency = 3")
        // Each answer takes a while, so that a client that may overlap requests does.
        try await world.simulator.addFault(.slow(seconds: 0.2), at: "/esplora/scripthash/*", times: 60)
        _ = try await Self.ingest(world, "2026-11-21T12:00:00Z")
        let requests = await world.takeRequests()
        let peak = requests.compactMap(\.inFlight).max() ?? 0
        let window: Int = 26 + 21
        #expect(requests.count == window)
        #expect(peak == 3, "at most 3 in flight, and 3 used")
    }

    @Test("a config the wallet refuses: the error names the file, the source, the descriptor and the reason, and never a private key")
    func configRefusals() async throws {
        let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LZ7EqzhpDrCZmZV7PmxqtkhBXgNvzBn1C3"
        let world = try await HDWorld([], sources: Self.source("cold", asset: "Cold", keys: "descriptors = [\"wpkh(\(xprv)/<0;1>/*)\"]"))
        let secret = try await world.cli().run("ingest")
        #expect(secret.status == 1 && secret.stderr.hasPrefix("error: config "))
        #expect(secret.stderr.contains("source 'cold'") && secret.stderr.contains("descriptor 1") && secret.stderr.contains("private key"))
        #expect(!secret.stderr.contains(xprv.dropFirst(4).prefix(12)) && !secret.stdout.contains(xprv.dropFirst(4).prefix(12)))

        let descriptor = VectorKeys.sparrowDescriptor
        let wrong = String(descriptor.dropLast(8)) + "abcdefgh"
        // BDK's checksum of the text as written, with ' for hardened steps.
        #expect(descriptor.hasSuffix("#hpg6d6w2"))
        world.writeConfig(sources: Self.source("cold", asset: "Cold", keys: "descriptors = [\"wpkh(\(VectorKeys.bip86Xpub)/0/*)\", \"\(wrong)\"]"))
        let checksum = try await world.cli().run("balance")
        #expect(checksum.status == 1)
        #expect(checksum.stderr.contains("descriptor 2") && checksum.stderr.contains("'\(descriptor.suffix(8))'"), "\(checksum.stderr)")
        #expect(checksum.stderr.split(separator: "\n").count == 1)
    }
}
