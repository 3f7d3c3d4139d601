import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSim
import WalletWatchStore

@Suite("Ingest against the simulator, over libcurl")
struct IngestTests {
    @Test("every movement and on-chain transaction is stored once, with SPEC.md's types, statuses and directions")
    func demoIngest() async throws {
        let world = try await SimulatedWorld()
        let reports = try await world.engine().ingestor.ingest()
        #expect(reports.map(\.ok) == [true, true], "\(reports.map(\.error))")
        let ark = try world.database.transactions(TransactionFilter(asset: "Ark wallet"))
        #expect(ark.count == 12)
        let byID = Dictionary(uniqueKeysWithValues: ark.map { ($0.transaction.txid, $0.transaction) })
        #expect(byID["ark:ark:1"]?.type == .board && byID["ark:ark:1"]?.status == .confirmed && byID["ark:ark:1"]?.amount == 500_000)
        #expect(byID["ark:ark:3"]?.type == .lightning && byID["ark:ark:3"]?.direction == .incoming)
        #expect(byID["ark:ark:4"]?.type == .lightning && byID["ark:ark:4"]?.direction == .outgoing && byID["ark:ark:4"]?.amount == -30075)
        #expect(byID["ark:ark:5"]?.type == .ark)
        #expect(byID["ark:ark:7"]?.status == .failed && byID["ark:ark:9"]?.status == .failed)
        #expect(byID["ark:ark:8"]?.type == .offboard && byID["ark:ark:10"]?.type == .exit)
        #expect(byID["ark:ark:12"]?.status == .pending)
        #expect(try world.database.transactions(TransactionFilter(asset: "Ark on-chain")).count == 3)
        // The address with 60 confirmed transactions is paged completely (25 + 25 + 10).
        let cold = try world.database.transactions(TransactionFilter(asset: "Cold storage"))
        #expect(cold.count == 62)
        #expect(cold.filter { $0.transaction.status == .pending }.count == 1)
        let balances = try world.database.balances()
        let overview = try world.database.assetOverview(named: "Ark wallet")
        #expect(balances[overview.asset.id!]?.counted == 482_045)
        #expect(try world.database.vtxos().count == 4)
        #expect(try world.database.chainTips()["ark"] == 870_000)

        // A second pass changes nothing and writes no transaction.
        let again = try await world.engine(now: "2026-11-21T12:01:00Z").ingestor.ingest()
        #expect(again.map(\.counts) == [IngestCounts(), IngestCounts()])
    }

    @Test("a status change is updated in place; a vanished pending transaction is marked failed")
    func updatesInPlace() async throws {
        let world = try await SimulatedWorld()
        _ = try await world.engine().ingestor.ingest()
        let firstSeen = try world.database.transactions(txid: "ark:ark:12")[0].transaction.firstSeenAt
        _ = try await world.simulator.updateMovement(id: 12, in: "ark", MovementUpdate(status: .successful, completedAt: SimTime(milliseconds: Instant.at("2026-11-21T11:00:00Z").millisecondsSinceEpoch)))
        let reports = try await world.engine(now: "2026-11-21T12:05:00Z").ingestor.ingest(sources: ["ark"])
        #expect(reports[0].counts.updated == 1 && reports[0].counts.new == 0)
        let row = try world.database.transactions(txid: "ark:ark:12")[0].transaction
        #expect(row.status == .confirmed)
        #expect(row.date == .at("2026-11-21T11:00:00Z"))
        #expect(row.firstSeenAt == firstSeen, "updated in place, not re-created")

        let pending = try #require(try world.database.transactions(TransactionFilter(asset: "Cold storage", status: .pending)).first)
        try await world.simulator.evictEsploraTransaction(pending.transaction.txid)
        let cold = try await world.engine(now: "2026-11-21T12:06:00Z").ingestor.ingest(sources: ["cold"])
        #expect(cold[0].counts.dropped == 1)
        #expect(try world.database.transactions(txid: pending.transaction.txid)[0].transaction.status == .failed)
    }

    @Test("Esplora incremental sync of one new transaction costs at most two requests per address")
    func incremental() async throws {
        let world = try await SimulatedWorld()
        _ = try await world.engine().ingestor.ingest(sources: ["cold"])
        let address = SimulatedWorld.esploraAddresses[0]
        try await world.simulator.addEsploraTransaction(EsploraTxSpec(
            txid: String(repeating: "ab", count: 32), inputs: [], outputs: [EsploraTxIO(address: address, value: 7777)], fee: 150,
            blockHeight: 870_001, blockTime: 1_795_260_000))
        await world.simulator.resetRequests()
        let report = try await world.engine(now: "2026-11-21T12:10:00Z").ingestor.ingest(sources: ["cold"])[0]
        #expect(report.counts.new == 1 && report.counts.updated == 0)
        let requests = await world.simulator.requests(matching: "/esplora")
        #expect(requests.count <= 2 * SimulatedWorld.esploraAddresses.count, "\(requests.map(\.path))")
        #expect(report.requests == requests.count)
        // --full pages through everything again and finds nothing new.
        let full = try await world.engine(now: "2026-11-21T12:11:00Z").ingestor.ingest(sources: ["cold"], full: true)[0]
        #expect(full.counts == IngestCounts())
    }

    /// An address added to a source later, whose newest transaction the source already knows
    /// (a transfer from an address it watched): its older history is not stored, so it must be
    /// paged through once, not stopped at that known transaction.
    @Test("an address added to an Esplora source pages its whole history once, though its newest transaction is known")
    func addedAddress() async throws {
        let world = try await SimulatedWorld()
        let watched = SimulatedWorld.esploraAddresses[0]
        let added = "bc1qaddedlater0000000000000000000000000000"
        for index in 0..<30 {
            try await world.simulator.addEsploraTransaction(EsploraTxSpec(
                txid: String(format: "%064x", 0xadd000 + index), inputs: [], outputs: [EsploraTxIO(address: added, value: 1000 + Int64(index))],
                fee: 150, blockHeight: 860_000 + index, blockTime: 1_790_000_000 + Int64(index) * 600))
        }
        let transfer = String(repeating: "cd", count: 32)
        try await world.simulator.addEsploraTransaction(EsploraTxSpec(
            txid: transfer, inputs: [], outputs: [EsploraTxIO(address: watched, value: 5000), EsploraTxIO(address: added, value: 6000)],
            fee: 150, blockHeight: 869_999, blockTime: 1_795_250_000))
        func cold(_ addresses: [String]) -> [SourceConfig] {
            [SourceConfig(name: "cold", kind: .esplora, url: world.simulator.esploraURL, asset: "Cold storage", addresses: addresses, intervalSeconds: 600)]
        }
        let first = try await world.engine(sources: cold([watched])).ingestor.ingest(sources: ["cold"])[0]
        #expect(first.ok, "\(first.error ?? "")")
        let second = try await world.engine(now: "2026-11-21T12:10:00Z", sources: cold([watched, added])).ingestor.ingest(sources: ["cold"])[0]
        #expect(second.ok, "\(second.error ?? "")")
        #expect(second.counts.new == 30, "every transaction of the added address: \(second.counts)")
        let stored = Set(try world.database.transactions(TransactionFilter(asset: "Cold storage")).map(\.transaction.txid))
        #expect((0..<30).allSatisfy { stored.contains(String(format: "%064x", 0xadd000 + $0)) })
        // From then on it is synced like the others: one new transaction, two requests an address.
        try await world.simulator.addEsploraTransaction(EsploraTxSpec(
            txid: String(repeating: "ef", count: 32), inputs: [], outputs: [EsploraTxIO(address: added, value: 7000)], fee: 150,
            blockHeight: 870_001, blockTime: 1_795_260_000))
        await world.simulator.resetRequests()
        let third = try await world.engine(now: "2026-11-21T12:20:00Z", sources: cold([watched, added])).ingestor.ingest(sources: ["cold"])[0]
        #expect(third.counts.new == 1)
        #expect(await world.simulator.requests(matching: "/esplora").count <= 4)
    }

    @Test("a single 429 with Retry-After is retried and the ingest succeeds")
    func rateLimitedOnce() async throws {
        let world = try await SimulatedWorld()
        try await world.simulator.addFault(.status(429, retryAfter: 1), at: "/barkd/ark/api/v1/history", times: 1)
        let started = ContinuousClock.now
        let reports = try await world.engine().ingestor.ingest(sources: ["ark"])
        #expect(reports[0].ok, "\(reports[0].error ?? "")")
        #expect(ContinuousClock.now - started >= .milliseconds(950), "Retry-After was honoured")
        #expect(try world.database.transactions(TransactionFilter(asset: "Ark wallet")).count == 12)
    }

    @Test("a slow source is cut off by the configured timeout")
    func slowSource() async throws {
        let world = try await SimulatedWorld()
        try await world.simulator.addFault(.slow(seconds: 30), at: "/barkd/ark/api/v1/wallet/balance")
        let started = ContinuousClock.now
        let reports = try await world.engine(timeoutSeconds: 1, retries: 0).ingestor.ingest(sources: ["ark"])
        let elapsed = ContinuousClock.now - started
        #expect(!reports[0].ok)
        #expect(reports[0].error?.contains("timed out") == true, "\(reports[0].error ?? "")")
        // The source would answer after 30 s; anything well short of that is the cut-off.
        #expect(elapsed < .seconds(20), "cut off after about one timeout, took \(elapsed)")
    }

    @Test("a missing token file is a clear error naming the file, not the token")
    func missingToken() async throws {
        let world = try await SimulatedWorld()
        try FileManager.default.removeItem(atPath: world.folder.file("barkd.token"))
        let report = try await world.engine().ingestor.ingest(sources: ["ark"])[0]
        #expect(report.error?.contains("token_file \(world.folder.file("barkd.token"))") == true, "\(report.error ?? "")")
        #expect(try world.database.transactionCount() == 0)
        let unknown = try? await world.engine().ingestor.ingest(sources: ["nope"])
        #expect(unknown == nil)
    }
}
