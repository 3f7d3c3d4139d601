import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchSim
@testable import WalletWatchStore

/// How a pass uses the database: no lock while it downloads, nothing decoded when nothing changed.
@Suite("Ingest passes against the simulator")
struct IngestPassTests {
    @Test("while barkd's history is still on its way, other writers never wait for the ingest")
    func noLockDuringDownload() async throws {
        let world = try await SimulatedWorld()
        let history = "/barkd/ark/api/v1/history"
        try await world.simulator.addFault(.slow(seconds: 3), at: history, times: 1)
        // Another process's connection, which waits at most 1 s for a lock; the history takes 3 s.
        let other = try AppDatabase.open(path: world.databasePath, busyTimeoutSeconds: 1)
        let ingest = Task { try await world.engine().ingestor.ingest(sources: ["ark"]) }
        // Wait until the ingest asked for everything: then it only waits for the history.
        while await world.simulator.requests(matching: "/barkd/ark/").count < 8 { try await Task.sleep(for: .milliseconds(20)) }
        var probes = 0
        while probes < 10 {
            _ = try other.createTag(name: "probe \(probes)", colorHex: nil, emoji: nil, now: .at("2026-11-21T12:00:00Z"))
            probes += 1
            try await Task.sleep(for: .milliseconds(150))
        }
        let reports = try await ingest.value
        #expect(reports.map(\.ok) == [true], "\(reports.map(\.error))")
        #expect(await world.simulator.requests(matching: history).count == 1, "the history was fetched once, slowly")
        #expect(try world.database.tagSummaries().count == 10)
        #expect(try world.database.transactions(TransactionFilter(asset: "Ark wallet")).count == 12)
    }

    @Test("a history sent unchanged is recognised by its digest and not decoded; --full compares it again")
    func unchangedHistorySkipped() async throws {
        let world = try await SimulatedWorld()
        #expect(try await world.engine().ingestor.ingest(sources: ["ark"])[0].ok)
        // A stored row that differs from what the source says: only decoding and comparing
        // the history would notice it.
        try await world.database.writer.write { db in
            try db.execute(sql: "UPDATE ledger SET amount = 1 WHERE txid = 'ark:ark:5'")
        }
        let same = try await world.engine(now: "2026-11-21T12:05:00Z").ingestor.ingest(sources: ["ark"])[0]
        #expect(same.ok && same.counts == IngestCounts())
        #expect(try world.database.transactions(txid: "ark:ark:5")[0].transaction.amount == 1, "the unchanged history was not decoded")

        let full = try await world.engine(now: "2026-11-21T12:06:00Z").ingestor.ingest(sources: ["ark"], full: true)[0]
        #expect(full.ok && full.counts.updated == 1)
        #expect(try world.database.transactions(txid: "ark:ark:5")[0].transaction.amount != 1)

        // The asset's rows gone (by hand: walletwatch deletes only manual entries): the same
        // history is no longer what is stored, so it is decoded and stored again.
        let stored = try world.database.transactions(TransactionFilter(asset: "Ark wallet")).count
        try await world.database.writer.write { db in
            try db.execute(sql: "DELETE FROM ledger WHERE asset_id = (SELECT id FROM assets WHERE name = 'Ark wallet')")
        }
        let emptied = try await world.engine(now: "2026-11-21T12:06:30Z").ingestor.ingest(sources: ["ark"])[0]
        #expect(emptied.ok && emptied.counts.new == stored)

        // A history that did change is decoded and compared whole.
        try await world.database.writer.write { db in try db.execute(sql: "UPDATE ledger SET amount = 1 WHERE txid = 'ark:ark:5'") }
        _ = try await world.simulator.updateMovement(id: 12, in: "ark", MovementUpdate(status: .successful))
        let changed = try await world.engine(now: "2026-11-21T12:07:00Z").ingestor.ingest(sources: ["ark"])[0]
        #expect(changed.ok && changed.counts.updated == 2)
    }

    @Test("a history that starts as the last one did is only hashed; if it differs further on, it is fetched again and compared")
    func headMatchesBodyDiffers() async throws {
        let world = try await SimulatedWorld()
        // 300 more movements put the oldest ones well past the first 64 KiB of the history.
        for index in 0..<300 {
            _ = try await world.simulator.addMovement(BarkdMovement(subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: 1_000 + Int64(index),
                                                                    time: .init(createdAt: SimTime(unixSeconds: 1_795_000_000 + Int64(index)))), to: "ark")
        }
        let history = "/barkd/ark/api/v1/history"
        #expect(try await world.engine().ingestor.ingest(sources: ["ark"])[0].ok)
        #expect(try world.database.transactions(TransactionFilter(asset: "Ark wallet")).count == 312)
        let body = try await world.engine().http.send(HTTPRequest(url: world.simulator.barkdURL("ark") + "/api/v1/history",
                                                                  bearerToken: BearerToken("demo-token"))).body
        #expect(body.count > BodyDigest.headBytes + 4096, "the oldest movement, at the end, is past the head")
        // The oldest movement changes: the head of the history stays as it was.
        _ = try await world.simulator.updateMovement(id: 1, in: "ark", MovementUpdate(status: .failed))
        await world.simulator.resetRequests()
        let deep = try await world.engine(now: "2026-11-21T12:05:00Z").ingestor.ingest(sources: ["ark"])[0]
        #expect(deep.ok && deep.counts.updated == 1, "\(deep.error ?? "")")
        #expect(try world.database.transactions(txid: "ark:ark:1")[0].transaction.status == .failed)
        #expect(await world.simulator.requests(matching: history).count == 2, "hashed first, then fetched again to be decoded")
        // Unchanged: one request, only hashed.
        await world.simulator.resetRequests()
        let same = try await world.engine(now: "2026-11-21T12:06:00Z").ingestor.ingest(sources: ["ark"])[0]
        #expect(same.ok && same.counts == IngestCounts())
        #expect(await world.simulator.requests(matching: history).count == 1)
        // A new movement changes the head: kept at once, one request.
        _ = try await world.simulator.addMovement(BarkdMovement(subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: 777,
                                                                time: .init(createdAt: SimTime(unixSeconds: 1_795_100_000))), to: "ark")
        await world.simulator.resetRequests()
        let head = try await world.engine(now: "2026-11-21T12:07:00Z").ingestor.ingest(sources: ["ark"])[0]
        #expect(head.ok && head.counts.new == 1)
        #expect(await world.simulator.requests(matching: history).count == 1)
    }

    @Test("the downloaded history is kept in no file once the pass is over, whether it succeeded or failed")
    func noDownloadLeftBehind() async throws {
        let world = try await SimulatedWorld()
        #expect(try await world.engine().ingestor.ingest(sources: ["ark"])[0].ok)
        try await world.simulator.addFault(.truncated, at: "/barkd/ark/api/v1/history", times: 1)
        #expect(try await world.engine(now: "2026-11-21T12:05:00Z").ingestor.ingest(sources: ["ark"])[0].ok == false)
        try await world.simulator.addFault(.wrongType, at: "/barkd/ark/api/v1/history", times: 1)
        let wrong = try await world.engine(now: "2026-11-21T12:06:00Z").ingestor.ingest(sources: ["ark"])[0]
        #expect(wrong.ok == false && wrong.error?.contains("/api/v1/history") == true, "\(wrong.error ?? "")")
        let files = try FileManager.default.contentsOfDirectory(atPath: world.folder.path)
        #expect(files.filter { $0.contains("download") }.isEmpty, "\(files)")
        #expect(try passesInProgress(world.database) == 0)
    }

    /// Passes still claimed (a synchronous read: the tests around it are async).
    func passesInProgress(_ database: AppDatabase) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ingest_passes")! }
    }
}
