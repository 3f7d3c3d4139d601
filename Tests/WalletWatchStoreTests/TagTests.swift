import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Tags on txids")
struct TagTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    func arkPass(_ database: AppDatabase, _ transactions: [ObservedTransaction], asset: String = "Ark wallet", source: String = "ark",
                 kind: AssetKind = .ark) async throws -> IngestCounts {
        var pass = try await database.beginPass(source: source, now: now)
        let id = try await pass.asset(kind, named: asset)
        try await pass.record(transactions, in: id)
        try await pass.markVanished(in: id)
        return try await pass.publish(startedAt: now) { _ in }
    }

    func tags(_ database: AppDatabase, _ txid: String) throws -> [[String]] {
        try database.transactions(txid: txid).map(\.tags)
    }

    @Test("tags survive status changes and updates in place; the same txid under two assets shows them on both rows")
    func surviveRefreshes() async throws {
        let database = try AppDatabase.inMemory()
        var transaction = ObservedTransaction(txid: "f00d", amount: -5000, type: .onchain, status: .pending, date: nil)
        _ = try await arkPass(database, [transaction], asset: "Hot", source: "hot", kind: .addresses)
        _ = try database.tagTransaction(txid: "f00d", tags: ["rent"], now: now)
        transaction.status = .confirmed
        transaction.date = .at("2026-11-05T00:00:00Z")
        #expect(try await arkPass(database, [transaction], asset: "Hot", source: "hot", kind: .addresses).updated == 1)
        var incoming = transaction
        incoming.amount = 5000
        _ = try await arkPass(database, [incoming], asset: "Cold", source: "cold", kind: .addresses)
        #expect(try tags(database, "f00d") == [["rent"], ["rent"]])
        #expect(try database.transactions(TransactionFilter(tag: "RENT")).count == 2)
        #expect(try database.tagSummaries().first?.transactions == 1, "counted once per txid")
    }

    @Test("a vanished, failed or deleted row keeps its tags on the txid")
    func rowsComeAndGo() async throws {
        let database = try AppDatabase.inMemory()
        _ = try await arkPass(database, [ObservedTransaction(txid: "ark:ark:1", amount: 10, type: .ark, status: .pending, date: now)])
        _ = try database.tagTransaction(txid: "ark:ark:1", tags: ["lunch"], now: now)
        #expect(try await arkPass(database, []).dropped == 1)
        #expect(try tags(database, "ark:ark:1") == [["lunch"]])
        _ = try database.createManualAsset(name: "Cash", currency: .usd, now: now)
        let manual = try database.addManualTransaction(assetName: "Cash", amount: "5", date: now, note: nil, now: now)
        _ = try database.tagTransaction(txid: manual.transaction.txid, tags: ["lunch"], now: now)
        _ = try database.deleteManualTransaction(txid: manual.transaction.txid, now: now)
        let summary = try #require(try database.tagSummaries().first)
        #expect(summary.transactions == 1 && summary.waiting == 1)
    }

    @Test("rename keeps assignments; delete removes only its own; a deactivated tag stays but takes no new ones")
    func lifecycle() async throws {
        let database = try AppDatabase.inMemory()
        _ = try await arkPass(database, [
            ObservedTransaction(txid: "a", amount: 1, type: .ark, status: .confirmed, date: now),
            ObservedTransaction(txid: "b", amount: 2, type: .ark, status: .confirmed, date: now),
        ])
        #expect(try database.tagTransaction(txid: "a", tags: ["food", "fun"], now: now) == ["food", "fun"])
        _ = try database.tagTransaction(txid: "b", tags: ["Food"], now: now)
        _ = try database.renameTag("food", to: "groceries")
        #expect(try tags(database, "a") == [["fun", "groceries"]])
        _ = try database.setTag("fun", active: false)
        #expect {
            try database.tagTransaction(txid: "b", tags: ["fun"], now: now)
        } throws: { ($0 as? Refusal)?.message.contains("deactivated") == true }
        #expect(try tags(database, "a") == [["fun", "groceries"]])
        let (_, removed) = try database.deleteTag("groceries")
        #expect(removed == 2)
        #expect(try tags(database, "a") == [["fun"]] && tags(database, "b") == [[]])
        #expect(throws: Refusal.self) { try database.tagTransaction(txid: "zzz", tags: ["x"], now: now) }
        #expect(try database.untagTransaction(txid: "a", tags: ["fun"]) == [])
        #expect(try database.untagTransaction(txid: "a", tags: ["fun"]) == ["fun"])
    }

    @Test("names are unique regardless of case")
    func uniqueness() throws {
        let database = try AppDatabase.inMemory()
        _ = try database.createTag(name: "Ümlaut", colorHex: "#AABBCC", emoji: "🏠", now: now)
        #expect(throws: Refusal.self) { try database.createTag(name: "ümlaut", colorHex: nil, emoji: nil, now: now) }
        _ = try database.createTag(name: "other", colorHex: nil, emoji: nil, now: now)
        #expect(throws: Refusal.self) { try database.renameTag("other", to: "ÜMLAUT") }
        #expect(try database.tagSummaries().first?.tag.id != nil)
    }

    @Test("labels imported before their transactions apply when those are ingested")
    func waitingLabels() async throws {
        let database = try AppDatabase.inMemory()
        let result = try database.importLabels([("ark:ark:9", ["salary"]), ("beef", ["rent", "Salary"])], now: now)
        #expect(result.assigned == 3 && result.waiting == 3 && result.createdTags == ["salary", "rent"])
        _ = try await arkPass(database, [ObservedTransaction(txid: "ark:ark:9", amount: 1, type: .ark, status: .confirmed, date: now)])
        #expect(try tags(database, "ark:ark:9") == [["salary"]])
        let again = try database.importLabels([("beef", ["rent"])], now: now)
        #expect(again.assigned == 0, "importing twice assigns nothing new")
    }

    @Test("tagging from one connection while an ingest rewrites the same transactions from another loses nothing")
    func concurrentTagging() async throws {
        let folder = TemporaryDirectory()
        let path = folder.file("shared.sqlite")
        let ingestSide = try AppDatabase.open(path: path)
        let tagSide = try AppDatabase.open(path: path)
        let txids = (0..<20).map { "ark:ark:\($0)" }
        let now = self.now
        func pass(_ round: Int) async throws {
            let transactions = txids.enumerated().map { index, txid in
                ObservedTransaction(txid: txid, amount: Int128(index + round), type: .ark,
                                    status: round % 2 == 0 ? .pending : .confirmed, date: now.adding(seconds: Int64(round)))
            }
            var ingest = try await ingestSide.beginPass(source: "ark", now: now)
            let id = try await ingest.asset(.ark, named: "Ark wallet")
            try await ingest.record(transactions, in: id)
            _ = try await ingest.publish(startedAt: now) { _ in }
        }
        try await pass(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for round in 1...40 { try await pass(round) } }
            group.addTask {
                for (index, txid) in txids.enumerated() {
                    _ = try tagSide.tagTransaction(txid: txid, tags: ["tag\(index % 3)", "all"], now: now)
                }
            }
            try await group.waitForAll()
        }
        for (index, txid) in txids.enumerated() {
            #expect(try tags(tagSide, txid) == [["all", "tag\(index % 3)"]])
        }
        #expect(try tagSide.tagSummaries().first { $0.tag.name == "all" }?.transactions == 20)
    }
}
