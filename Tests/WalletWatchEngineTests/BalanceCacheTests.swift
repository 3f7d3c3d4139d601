import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSim
import WalletWatchStore

@Suite("The 5-minute balance cache")
struct BalanceCacheTests {
    @Test("a fresh cache answers without a single request; an old one asks the balance endpoints only")
    func freshAndOld() async throws {
        let world = try await SimulatedWorld()
        _ = try await world.engine(now: "2026-11-21T12:00:00Z").ingestor.ingest()
        await world.simulator.resetRequests()
        let cached = try await world.engine(now: "2026-11-21T12:04:59Z").balances.current(refresh: false)
        #expect(await world.simulator.requests().isEmpty, "a fresh cache must make no request")
        #expect(cached.sources.allSatisfy { $0.fromCache && !$0.stale })

        let old = try await world.engine(now: "2026-11-21T12:05:01Z").balances.current(refresh: false)
        let paths = Set(await world.simulator.requests().map(\.path))
        #expect(paths == Set(["/barkd/ark/api/v1/wallet/balance", "/barkd/ark/api/v1/onchain/balance"]
                             + SimulatedWorld.esploraAddresses.map { "/esplora/address/\($0)" }))
        #expect(old.sources.allSatisfy { !$0.fromCache && !$0.stale })
        #expect(try world.database.arkBalances()["ark"]?.lastUpdated == .at("2026-11-21T12:05:01Z"))

        await world.simulator.resetRequests()
        _ = try await world.engine(now: "2026-11-21T12:05:02Z").balances.current(refresh: true)
        #expect(await !world.simulator.requests().isEmpty, "--refresh always asks")
    }

    @Test("a source that is down falls back to its stored balance, marked stale, with its age; nothing stored is an error")
    func staleFallback() async throws {
        let world = try await SimulatedWorld()
        _ = try await world.engine(now: "2026-11-21T12:00:00Z").ingestor.ingest()
        try await world.simulator.addFault(.status(503), at: "/barkd/ark/*")
        let report = try await world.engine(now: "2026-11-21T12:10:00Z").balances.current(refresh: false)
        let ark = try #require(report.sources.first { $0.source.name == "ark" })
        #expect(ark.stale && ark.fromCache)
        #expect(ark.ark?.balance.spendable == 482_045)
        #expect(report.warnings.contains { $0.contains("source 'ark'") && $0.contains("10m ago") && $0.contains("HTTP 503") })
        #expect(report.sources.first { $0.source.name == "cold" }?.stale == false)

        let empty = try await SimulatedWorld()
        try await empty.simulator.addFault(.status(503), at: "/barkd/ark/*")
        await #expect(throws: SourceUnavailable.self) { try await empty.engine().balances.current(refresh: false) }
    }

    @Test("a VTXO expiring within 144 blocks of the tip is warned about")
    func vtxoExpiry() async throws {
        let world = try await SimulatedWorld()
        _ = try await world.engine().ingestor.ingest(sources: ["ark"])
        let report = try await world.engine(now: "2026-11-21T12:01:00Z").balances.current(refresh: false)
        let warnings = report.warnings.filter { $0.contains("VTXO") }
        #expect(warnings.count == 1, "\(report.warnings)")
        #expect(warnings.first?.contains("expires in 100 blocks") == true)
    }
}
