import Foundation
import TestSupport
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// The test that matters most: a real ElectrumX 2.0.0 indexes the simulator's chain through the
/// Core face, and for every script of a scenario (an HD wallet with 55 used addresses on each
/// chain, spends and mempool deposits; plain addresses of every kind; the faucet) ElectrumX and
/// the simulator's own Electrum face answer the same: every header, statuses, histories,
/// balances, unspent outputs, raw transactions, merkle proofs. Then again after a mempool
/// payment (ElectrumX's notification arrives), a new block and a reorg.
@Suite(.serialized) struct ElectrumXConformanceTests {
    /// A testnet account key (regtest addresses).
    static let vpub = "vpub5SLqN2bLY4WeZF3kL4VqiWF1itbf3A6oRrq9aPf16AZMVWYCuN9TxpAZwCzVgW94TNzZPNc9XAHD4As6pdnExBtCDGYRmNJrcJ4eV9hNqcv"

    static let plain = [ChainFixture.p2wpkh, ChainFixture.p2pkh, ChainFixture.p2sh, ChainFixture.p2tr, ChainFixture.p2wsh]

    static let scenario = ChainFixture.scenario(tip: 200, esplora: EsploraScenario(
        hdWallets: [HDWalletScenario(name: "w", xpub: HDScenarioTests.bip84, receive: Array(0..<55), change: Array(0..<55),
                                     mempoolReceive: [55, 56], seed: 3),
                    // Only a mempool deposit: its spend (made during the test) has an unconfirmed input (-1).
                    HDWalletScenario(name: "m", xpub: Self.vpub, network: "regtest", mempoolReceive: [0], seed: 4)],
        payments: [
            PaymentScenario(address: ChainFixture.p2pkh, value: 25_000, blockHeight: 120),
            PaymentScenario(address: ChainFixture.p2sh, value: 26_000, blockHeight: 150),
            PaymentScenario(address: ChainFixture.p2tr, value: 27_000, blockHeight: 150),
            PaymentScenario(address: ChainFixture.p2wsh, value: 28_000, blockHeight: 199),
            PaymentScenario(address: ChainFixture.p2pkh, value: 29_000),
            PaymentScenario(address: ChainFixture.p2wpkh, value: 30_000, blockHeight: 2),
        ]))

    @Test func electrumXAndTheSimulatorAnswerAlike() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            let electrumx = try await ElectrumXServer.start(daemonURL: sim.coreRPCURL, certificatePath: sim.certificatePath,
                                                            keyPath: sim.keyPath, indexedHeight: 200)
            do {
                try await Self.compareThroughChanges(sim, electrumx)
            } catch {
                Issue.record("ElectrumX's log:\n\(electrumx.logTail)")
                await electrumx.stop()
                throw error
            }
            await electrumx.stop()
            #expect(!electrumx.isRunning)
        }
    }

    static func compareThroughChanges(_ sim: Simulator, _ electrumx: ElectrumXServer) async throws {
        var scripts = Self.plain + [await sim.faucetAddress]
        for index in 0..<57 { scripts.append(try await sim.hdAddress(wallet: "w", index: index)) }
        for index in 0..<55 { scripts.append(try await sim.hdAddress(wallet: "w", chain: .change, index: index)) }
        scripts += [try await sim.hdAddress(wallet: "m", index: 0), try await sim.hdAddress(wallet: "m", chain: .change, index: 0)]
        let ours = try await ElectrumTestClient.connect(sim.electrumTCPURL)
        // ElectrumX over SSL, with the simulator's certificate and key.
        let theirs = try await ElectrumTestClient.connect(electrumx.sslURL)
        for client in [ours, theirs] { _ = try await client.call("server.version", ["walletwatch-tests", ["1.4", "1.6"]]) }
        try await Self.expectAlike(ours, theirs, scripts: scripts, tip: 200, "the scenario")

        // A payment enters the mempool: ElectrumX tells its subscriber, and agrees again.
        let watched = ChainFixture.scripthash(ChainFixture.p2wpkh)
        let history = try #require(try await theirs.result("blockchain.scripthash.get_history", [watched]) as? [[String: Any]])
        let entries = history.map { ($0["tx_hash"] as? String ?? "", $0["height"] as? Int ?? 0) }
        #expect(try await theirs.result("blockchain.scripthash.subscribe", [watched]) as? String == ChainFixture.status(entries))
        #expect(try await ours.result("blockchain.scripthash.subscribe", [watched]) as? String == ChainFixture.status(entries))
        let payment = try await sim.pay(ChainFixture.p2wpkh, value: 41_000)
        // A mempool spend of a mempool deposit: height -1 on both servers.
        let unconfirmed = try await sim.hdSpend(wallet: "m", pay: 20_000, changeIndex: 0)
        for client in [theirs, ours] {
            let notified = try #require(try await client.notification("blockchain.scripthash.subscribe", first: watched, within: .seconds(20)))
            #expect(notified.last as? String == ChainFixture.status(entries + [(payment.txid, 0)]))
        }
        try await Self.expectAlike(ours, theirs, scripts: scripts, tip: 200, "after a mempool payment")
        let spent = try #require(try await theirs.result("blockchain.scripthash.get_mempool", [ChainFixture.scripthash(scripts.last!)]) as? [[String: Any]])
        #expect(spent.map { $0["tx_hash"] as? String } == [unconfirmed.txid] && spent.first?["height"] as? Int == -1)

        // A block mines it.
        _ = try await theirs.result("blockchain.headers.subscribe")
        _ = try await sim.mine()
        let header = try #require(try await theirs.notification("blockchain.headers.subscribe", within: .seconds(20))?.first as? [String: Any])
        #expect(header["height"] as? Int == 201)
        try await Self.expectAlike(ours, theirs, scripts: scripts, tip: 201, "after a block")

        // A reorg replaces the last two blocks with three: the payment is back in the mempool.
        _ = try await sim.reorg(depth: 2)
        try await electrumx.waitUntilIndexed(height: 202, within: .seconds(30))
        try await Self.expectAlike(ours, theirs, scripts: scripts, tip: 202, "after a reorg")
        await ours.close()
        await theirs.close()
    }

    /// Asks both servers everything about `scripts` and the chain up to `tip`; retries for a
    /// while (ElectrumX polls its daemon), then reports what still differs.
    static func expectAlike(_ ours: ElectrumTestClient, _ theirs: ElectrumTestClient, scripts: [String], tip: Int, _ moment: String) async throws {
        var differences: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        repeat {
            differences = try await Self.differences(ours, theirs, scripts: scripts, tip: tip)
            if differences.isEmpty { return }
            try await Task.sleep(for: .milliseconds(200))
        } while ContinuousClock.now < deadline
        Issue.record(Comment(rawValue: "\(moment): ElectrumX and the simulator differ:\n" + Array(differences.prefix(10)).joined(separator: "\n")))
    }

    static func differences(_ ours: ElectrumTestClient, _ theirs: ElectrumTestClient, scripts: [String], tip: Int) async throws -> [String] {
        var found: [String] = []
        func compare(_ what: String, _ calls: [(String, [Any])], canonical: (ElectrumReply) -> String = { $0.resultText }) async throws {
            let (a, b) = (try await ours.batch(calls), try await theirs.batch(calls))
            for (index, call) in calls.enumerated() where canonical(a[index]) != canonical(b[index]) {
                found.append("\(what) \(call.1): simulator \(a[index].text.prefix(400)) / ElectrumX \(b[index].text.prefix(400))")
            }
        }
        let hashes = scripts.map(ChainFixture.scripthash)
        try await compare("tip", [("blockchain.headers.subscribe", [])])
        try await compare("headers", [("blockchain.block.headers", [0, tip + 1])])
        for method in ["get_history", "get_balance", "get_mempool"] {
            try await compare(method, hashes.map { ("blockchain.scripthash." + method, [$0]) })
        }
        try await compare("status", hashes.map { ("blockchain.scripthash.subscribe", [$0]) })
        // ElectrumX lists mempool coins in no particular order (a set's).
        try await compare("listunspent", hashes.map { ("blockchain.scripthash.listunspent", [$0]) }) { reply in
            let coins = reply.result as? [[String: Any]] ?? []
            let pending = coins.filter { $0["height"] as? Int == 0 }.sorted { "\($0["tx_hash"]!)\($0["tx_pos"]!)" < "\($1["tx_hash"]!)\($1["tx_pos"]!)" }
            return ElectrumReply.canonical(coins.filter { $0["height"] as? Int != 0 } + pending)
        }
        // Every transaction of these histories: its bytes, and where mined its merkle proof.
        let histories = try await ours.batch(hashes.map { ("blockchain.scripthash.get_history", [$0]) })
        var entries: [String: Int] = [:]
        for reply in histories {
            for entry in reply.result as? [[String: Any]] ?? [] { entries[entry["tx_hash"] as! String] = entry["height"] as? Int }
        }
        try await compare("transaction", entries.keys.sorted().map { ("blockchain.transaction.get", [$0]) })
        try await compare("merkle", entries.filter { $0.value > 0 }.keys.sorted().map { ("blockchain.transaction.get_merkle", [$0, entries[$0]!]) })
        return found
    }
}
