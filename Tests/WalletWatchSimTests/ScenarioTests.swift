import Foundation
import Testing
@testable import WalletWatchSim

/// Scenarios load from JSON and Swift alike; times, JSON and models round-trip exactly.
@Suite struct ScenarioTests {
    static var demoPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Config/demo-scenario.json").path
    }

    /// The real chain of Config/electrum-scenario.json: the demo's HD wallet over Electrum.
    @Test func electrumScenarioServesTheDemoWallet() async throws {
        let path = (Self.demoPath as NSString).deletingLastPathComponent + "/electrum-scenario.json"
        let scenario = try Scenario.load(from: path)
        #expect(scenario.bitcoin?.network == "regtest" && scenario.tipHeight == 300)
        try await ChainFixture.withFace(scenario) { sim, client in
            let first = try await sim.hdAddress(wallet: "cold", index: 0)
            let history = try #require(try await client.result("blockchain.scripthash.get_history", [ChainFixture.scripthash(first)]) as? [[String: Any]])
            #expect(!history.isEmpty && history.allSatisfy { ($0["height"] as? Int ?? 0) > 0 })
            let pending = try await sim.hdAddress(wallet: "cold", index: 4)
            let mempool = try #require(try await client.result("blockchain.scripthash.get_mempool", [ChainFixture.scripthash(pending)]) as? [[String: Any]])
            #expect(mempool.count == 1 && mempool[0]["height"] as? Int == 0)
        }
    }

    @Test func demoScenarioIsCompleteAndConsistent() async throws {
        let scenario = try Scenario.load(from: Self.demoPath)
        let wallet = try #require(scenario.wallets.first { $0.name == "ark" })
        #expect(wallet.token == "demo-token")
        #expect(scenario.tipHeight == 870_000)
        #expect((10...14).contains(wallet.movements.count))
        #expect(Set(wallet.movements.map(\.subsystem.name)) == ["bark.arkoor", "bark.round", "bark.lightning_send",
                                                                 "bark.lightning_receive", "bark.board", "bark.offboard", "bark.exit"])
        #expect(Set(wallet.movements.map(\.status)) == Set(BarkdMovementStatus.allCases))
        #expect(wallet.movements.contains { $0.effectiveBalanceSat > 0 } && wallet.movements.contains { $0.effectiveBalanceSat < 0 })
        #expect(wallet.movements.contains { $0.time.completedAt == nil })
        #expect(wallet.onchainTransactions.count == 3 && wallet.onchainTransactions.filter { $0.confirmation == nil }.count == 1)
        #expect(wallet.vtxos.count == 4 && wallet.vtxos.contains { $0.expiryHeight - 870_000 <= 144 })
        #expect(wallet.utxos.count == 2)
        #expect(scenario.prices["USD"] == 65_000 && scenario.prices["EUR"] == 60_000)

        // The stated balances are what the movements and transactions add up to.
        let state = try WalletState(wallet, referenceTime: scenario.referenceTime)
        #expect(wallet.balance == WalletState.derivedBalance(state.history(filter: nil)))
        #expect(wallet.onchainBalance == WalletState.derivedOnchainBalance(wallet.onchainTransactions))
        #expect(wallet.vtxos.filter { $0.state == .spendable }.reduce(0) { $0 + $1.amountSat } == wallet.balance?.spendableSat)
        #expect(wallet.utxos.reduce(0) { $0 + $1.amountSat } == wallet.onchainBalance?.totalSat)

        try await Fixture.withSimulator(scenario) { sim in
            let addresses = Set(scenario.esplora.generated.map(\.address) + scenario.esplora.transactions.flatMap { $0.outputs.map(\.address) })
            var counts: [Int] = []
            for address in addresses {
                let stats = try #require(try await HTTPProbe.get(sim.esploraURL + "/address/" + address).object)
                counts.append(EsploraAPITests.numbers(stats["chain_stats"])["tx_count"] ?? 0)
            }
            #expect(counts.contains(60))
            let mempool = try await HTTPProbe.get(sim.esploraURL + "/address/" + (scenario.esplora.transactions.last?.outputs.first?.address ?? "") + "/txs/mempool")
            #expect(mempool.array?.count == 1)
        }
    }

    @Test func jsonScenarioEqualsTheSwiftOne() async throws {
        let swift = Scenario(now: Fixture.now, wallets: [Fixture.arkWallet()])
        let decoded = try Scenario.decode(try swift.jsonData())
        let paths = ["/api/v1/history", "/api/v1/wallet/balance", "/api/v1/onchain/transactions", "/api/v1/wallet/vtxos?all=true",
                     "/api/v1/onchain/utxos", "/api/v1/wallet/ark-info", "/api/v1/onchain/balance"]
        var served: [[[UInt8]]] = []
        for scenario in [swift, decoded] {
            served.append(try await Fixture.withSimulator(scenario) { sim in
                var bodies: [[UInt8]] = []
                for path in paths { bodies.append(try await HTTPProbe.get(sim.barkdURL("ark") + path, token: "t").body) }
                return bodies
            })
        }
        #expect(served[0] == served[1])
    }

    @Test func scenarioErrorsSayWhere() throws {
        let missing = #"{"wallets":[{"name":"ark","movements":[{"subsystem":{"name":"bark.board","kind":"board"},"time":{"created_at":"2026-01-01T00:00:00Z"}}]}]}"#
        #expect(throws: SimulatorError.self) { try Scenario.decode(Data(missing.utf8)) }
        do {
            _ = try Scenario.decode(Data(missing.utf8))
        } catch {
            #expect("\(error)".contains("effective_balance_sat"), "\(error)")
        }
        #expect(throws: SimulatorError.self) {
            _ = try SimulatorState(scenario: Scenario(wallets: [WalletScenario(name: "a b")]))
        }
        #expect(throws: SimulatorError.self) {
            _ = try SimulatorState(scenario: Scenario(wallets: [WalletScenario(name: "x"), WalletScenario(name: "x")]))
        }
    }

    @Test func timesParseAndPrintLikeChrono() throws {
        #expect(SimTime(iso8601: "2026-11-21T12:00:00Z")?.iso8601 == "2026-11-21T12:00:00Z")
        #expect(SimTime(iso8601: "2026-11-21T12:00:00.5Z")?.iso8601 == "2026-11-21T12:00:00.500Z")
        #expect(SimTime(iso8601: "2026-11-21T13:00:00.123456789+01:00")?.iso8601 == "2026-11-21T12:00:00.123Z")
        #expect(SimTime(iso8601: "2026-11-21T12:00:00 01:00")?.iso8601 == "2026-11-21T11:00:00Z", "an unescaped + in a query")
        #expect(SimTime(iso8601: "1969-12-31T23:59:59Z")?.milliseconds == -1000)
        #expect(SimTime(iso8601: "2024-02-29T00:00:00Z")?.unixSeconds == 1_709_164_800)
        for bad in ["", "2026-11-21", "2026-13-01T00:00:00Z", "2026-11-21T12:00:00", "2026-11-21T12:00:00Zjunk"] {
            #expect(SimTime(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func metadataKeepsOrderAndValuesOnTheWire() async throws {
        // A movement's metadata is served as given: members in their order, strings escaped,
        // numbers as written.
        let metadata = JSONValue.object([
            .init("b", .int(1)),
            .init("a", .array([.bool(true), .null, .string("x\"y\n\u{01}"), .double(65000.12), .int(-300)])),
            .init("c", .object([])),
        ])
        let wallet = WalletScenario(name: "m", movements: [
            BarkdMovement(id: 1, subsystem: .board, metadata: metadata, effectiveBalanceSat: 1, time: .completed(at: Fixture.now)),
        ])
        try await Fixture.withSimulator(Scenario(wallets: [wallet])) { sim in
            let raw = try await HTTPProbe.get(sim.barkdURL("m") + "/api/v1/history").text
            #expect(raw.contains(#""metadata":{"b":1,"a":[true,null,"x\"y\n\u0001",65000.12,-300],"c":{}}"#), "\(raw)")
        }
        // From a scenario file: the same values (keys sorted, as decoders do not report their order).
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"b":1,"a":[true,null,"x\"y",65000.12,-300],"c":{}}"#.utf8))
        #expect(decoded == .object([
            .init("a", .array([.bool(true), .null, .string("x\"y"), .double(65000.12), .int(-300)])),
            .init("b", .int(1)),
            .init("c", .object([])),
        ]))
    }

    @Test func portFilesAppearWhole() throws {
        let path = NSTemporaryDirectory() + "ww-sim-port-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(PortFile.read(path) == nil)
        try PortFile.write(43_210, to: path)
        #expect(PortFile.read(path) == 43_210)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix((path as NSString).lastPathComponent + ".tmp") }
        #expect(leftovers.isEmpty)
    }
}
