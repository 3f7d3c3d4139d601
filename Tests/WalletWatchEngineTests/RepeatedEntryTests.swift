import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSim
import WalletWatchStore

/// SPEC.md section 24: an answer that lists one movement id or txid twice with different
/// contents is refused, naming it, and changes nothing stored; the same contents twice count
/// once. The duplicates are served for real by the simulator (its `recorded` fault answers the
/// exact text given), built from what it served before.
@Suite("Sources that list one id twice", .serialized)
struct RepeatedEntryTests {
    static let historyPath = "/barkd/ark/api/v1/history"

    /// The simulator's barkd history as JSON objects, newest first.
    static func history(_ world: SimulatedWorld) async throws -> [[String: Any]] {
        let result = try await ProcessRunner.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer demo-token",
                                                                  world.simulator.barkdURL("ark") + "/api/v1/history"],
                                                 environment: [:], currentDirectory: "/")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    static func serve(_ movements: [[String: Any]], at path: String = historyPath, in world: SimulatedWorld) async throws {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: movements), as: UTF8.self)
        await world.simulator.clearFaults()
        try await world.simulator.addFault(.recorded(body: body), at: path)
    }

    /// A copy of `movement` whose amount is `sats` more.
    static func changed(_ movement: [String: Any], by sats: Int) -> [String: Any] {
        var copy = movement
        copy["effective_balance_sat"] = (movement["effective_balance_sat"] as! Int) + sats
        copy["intended_balance_sat"] = (movement["intended_balance_sat"] as! Int) + sats
        return copy
    }

    @Test("a first ingest whose history lists a movement twice with different amounts is refused naming it; nothing is stored")
    func firstIngestRefused() async throws {
        let world = try await SimulatedWorld()
        var movements = try await Self.history(world)
        let repeated = movements[2]
        movements.append(Self.changed(repeated, by: 1_000))
        try await Self.serve(movements, in: world)
        let before = try world.fingerprint()
        let report = try #require(try await world.engine().ingestor.ingest(sources: ["ark"]).first)
        #expect(!report.ok)
        let id = repeated["id"] as! Int
        #expect(report.error?.hasPrefix("source 'ark': its answer lists ark:ark:\(id) twice with different contents (") == true, "\(report.error ?? "")")
        #expect(report.error?.hasSuffix("; nothing of this pass was stored") == true)
        #expect(try world.fingerprint() == before)
        #expect(try world.database.transactions().isEmpty)
    }

    @Test("the same movement listed twice with the same contents is stored once")
    func identicalCopiesCountOnce() async throws {
        let world = try await SimulatedWorld()
        let movements = try await Self.history(world)
        try await Self.serve(movements + [movements[0], movements[3]], in: world)
        let report = try #require(try await world.engine().ingestor.ingest(sources: ["ark"]).first)
        #expect(report.ok, "\(report.error ?? "")")
        let stored = try world.database.transactions()
        #expect(stored.filter { $0.assetName == "Ark wallet" }.count == movements.count)
        #expect(report.counts.new == stored.count, "each counted once")
    }

    /// On a wallet with rows, a repeat whose first copy changed nothing leaves no trace in the
    /// pass: the pass must remember what it saw to notice the second copy.
    @Test("a re-ingest whose history repeats a stored movement with a new amount is refused; the same contents are fine")
    func reIngestRefused() async throws {
        let world = try await SimulatedWorld()
        let engine = world.engine()
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].ok)
        let movements = try await Self.history(world)
        let before = try world.fingerprint()

        try await Self.serve(movements + [Self.changed(movements[1], by: -500)], in: world)
        let refused = try #require(try await world.engine(now: "2026-11-21T12:05:00Z").ingestor.ingest(sources: ["ark"]).first)
        #expect(!refused.ok)
        #expect(refused.error?.contains("lists ark:ark:\(movements[1]["id"] as! Int) twice with different contents") == true, "\(refused.error ?? "")")
        #expect(try world.fingerprint() == before)

        // A repeat of a movement new to the store, different the second time, also while the
        // first copy is still waiting to be written.
        var fresh = movements[0]
        fresh["id"] = 9_001
        try await Self.serve([fresh] + movements + [Self.changed(fresh, by: 7)], in: world)
        let second = try #require(try await world.engine(now: "2026-11-21T12:06:00Z").ingestor.ingest(sources: ["ark"]).first)
        #expect(second.error?.contains("lists ark:ark:9001 twice with different contents") == true, "\(second.error ?? "")")
        #expect(try world.fingerprint() == before)

        try await Self.serve([fresh] + movements + [movements[1], fresh], in: world)
        let same = try #require(try await world.engine(now: "2026-11-21T12:07:00Z").ingestor.ingest(sources: ["ark"]).first)
        #expect(same.ok && same.counts.new == 1 && same.counts.updated == 0, "\(same)")
    }

    @Test("an Esplora page and barkd's on-chain list that name a txid twice with different contents are refused")
    func onchainLists() async throws {
        let world = try await SimulatedWorld()
        let address = SimulatedWorld.esploraAddresses[0]
        let page = try await ProcessRunner.run("/usr/bin/curl", ["-s", world.simulator.esploraURL + "/address/\(address)/txs"],
                                               environment: [:], currentDirectory: "/")
        var transactions = try #require(try JSONSerialization.jsonObject(with: Data(page.stdout.utf8)) as? [[String: Any]])
        var copy = transactions[0]
        var status = copy["status"] as! [String: Any]
        status["block_height"] = (status["block_height"] as? Int ?? 0) + 1
        copy["status"] = status
        transactions.append(copy)
        try await Self.serve(transactions, at: "/esplora/address/\(address)/txs", in: world)
        let report = try #require(try await world.engine().ingestor.ingest(sources: ["cold"]).first)
        #expect(!report.ok)
        #expect(report.error?.hasSuffix("/address/[listed address 1 of 'Cold storage']/txs: txid \(copy["txid"] as! String) is listed twice with different contents") == true,
                "\(report.error ?? "")")
        #expect(try world.database.transactions().isEmpty)

        let onchain = try await ProcessRunner.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer demo-token",
                                                                   world.simulator.barkdURL("ark") + "/api/v1/onchain/transactions"],
                                                  environment: [:], currentDirectory: "/")
        var list = try #require(try JSONSerialization.jsonObject(with: Data(onchain.stdout.utf8)) as? [[String: Any]])
        var twin = list[0]
        twin["balance_change_sat"] = (twin["balance_change_sat"] as! Int) + 1
        list.append(twin)
        try await Self.serve(list, at: "/barkd/ark/api/v1/onchain/transactions", in: world)
        let barkd = try #require(try await world.engine().ingestor.ingest(sources: ["ark"]).first)
        #expect(barkd.error?.contains("is listed twice with different contents") == true, "\(barkd.error ?? "")")
        #expect(try world.database.transactions().isEmpty)
    }
}
