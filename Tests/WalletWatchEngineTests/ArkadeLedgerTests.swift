import Foundation
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSim
import WalletWatchSources
import WalletWatchStore

/// What follows an Arkade pass as for barkd (SPEC.md section 27): Rule 1 on the transactions it
/// confirms, and the state of each VTXO, expired ones marked.
@Suite struct ArkadeLedgerTests {
    /// Each source's asset, fully allocated to one goal while empty (100%), collects its first
    /// confirmed receipt by Rule 1.
    @Test(arguments: [("arkade", "Arkade wallet"), ("ark-watch", "Ark savings")])
    func rule1AllocatesAReceiptOfAnAssetDedicatedToAGoal(source: String, asset: String) async throws {
        let world = try await SimulatedWorld(scenario: Scenario(arkade: ArkadeScenario(network: "bitcoin", fulmineWallets: ["arkade"])))
        let watched = try await ArkadeIngestTests.watchedAddress(world)
        let engine = world.engine(sources: try ArkadeIngestTests.sources(world, watched: watched))
        #expect(try await engine.ingestor.ingest(sources: [source])[0].ok)
        _ = try engine.goals.add(name: "Boat", currency: .btc, target: Money(minorUnits: 10_000_000, currency: .btc), deadline: nil)
        _ = try engine.allocations.allocate(asset: asset, assignments: [("Boat", "100%")])

        if source == "arkade" {
            try await world.simulator.arkadeReceive(wallet: "arkade", amount: 64_000, batch: true)
        } else {
            try await world.simulator.arkadeReceive(address: watched, amount: 64_000, batch: true)
        }
        let report = try await engine.ingestor.ingest(sources: [source])[0]
        #expect(report.ok && report.counts.new == 1 && report.counts.autoAllocated == 1, "\(report)")
        let history = try engine.allocations.history(asset: asset).entries
        #expect(history.last.map { "\($0.goal) \($0.amount) \($0.reason.rawValue)" } == "Boat 64000 rule1", "\(history)")
        let again = try await engine.ingestor.ingest(sources: [source])[0]
        #expect(again.ok && again.counts.autoAllocated == 0, "a transaction is allocated once: \(again)")
    }

    /// A VTXO whose time expiry has passed is stored as `expired` (the server sweeps it later),
    /// and still counted: it is recoverable.
    @Test func aVTXOPastItsExpiryIsMarkedExpiredAndStillCounted() async throws {
        let world = try await SimulatedWorld(scenario: ArkadeIngestTests.scenario())
        let watched = try await ArkadeIngestTests.watchedAddress(world)
        let outpoint = try await world.simulator.arkadeReceive(address: watched, amount: 7_000, batch: true)
        let probe = ArkdClient(source: "probe", baseURL: world.simulator.arkdURL, http: ArkadeStreamFaultTests.http())
        let expiry = try #require(try await probe.vtxos(scripts: [try ArkAddress(watched).vtxoScriptHex]).first?.expiresAt)
        #expect(expiry >= ArkadeVtxo.heightLimit, "the simulator's expiry is a time")
        let sources = try ArkadeIngestTests.sources(world, watched: watched).filter { $0.kind == .arkd }
        for (offset, state) in [(-3600, "settled"), (3600, "expired")] {
            let now = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(expiry + Int64(offset))))
            let report = try await world.engine(now: now, sources: sources).ingestor.ingest()[0]
            #expect(report.ok, "\(report.error ?? "")")
            let stored = try #require(try world.database.vtxos().first { $0.vtxo.id == outpoint })
            #expect(stored.vtxo.state == state, "at \(now)")
            #expect(try world.database.arkBalances()["ark-watch"]?.balance.counted == 7_000)
        }
    }

    /// `doctor` asks both faces what an ingest asks first; Fulmine on loopback draws no warning,
    /// and a wallet the gateway does not know fails the check in one line.
    @Test func doctorChecksBothFaces() async throws {
        let world = try await SimulatedWorld(scenario: ArkadeIngestTests.scenario())
        let watched = try await ArkadeIngestTests.watchedAddress(world)
        var sources = try ArkadeIngestTests.sources(world, watched: watched)
        sources.append(SourceConfig(name: "gone", kind: .fulmine, url: world.simulator.fulmineURL("nobody"), asset: "Gone", intervalSeconds: 60))
        let checks = await world.engine(sources: sources).doctor.run()
        let fulmine = try #require(checks.first { $0.name == "source arkade" })
        #expect(fulmine.ok && fulmine.detail.contains("answers like Fulmine") && fulmine.detail.contains("120000 sat"), "\(fulmine.detail)")
        #expect(!fulmine.detail.contains("warning"), "loopback: \(fulmine.detail)")
        let arkd = try #require(checks.first { $0.name == "source ark-watch" })
        #expect(arkd.ok && arkd.detail.contains("answers like an Ark server's indexer: network bitcoin"), "\(arkd.detail)")
        let gone = try #require(checks.first { $0.name == "source gone" })
        #expect(!gone.ok && gone.detail.contains("404") && !gone.detail.contains("\n"), "\(gone.detail)")
    }
}
