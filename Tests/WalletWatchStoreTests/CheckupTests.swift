import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

@Suite("Check: a damaged file")
struct CheckupTests {
    @Test("a page of an index overwritten with zeros: the integrity check reports it, the other checks still run")
    func damagedIndex() async throws {
        let folder = TemporaryDirectory()
        let path = folder.file("w.sqlite")
        do {
            let database = try AppDatabase.open(path: path)
            try await database.saveRates([ExchangeRate(pair: CurrencyPair(base: .btc, quote: .usd), rate: 65000, fetchedAt: .at("2026-11-01T00:00:00Z"), provider: "static")])
            #expect(try database.checkup().findings == [])
        }
        // Checkpointed and closed: the file holds every page.
        let (pageSize, root) = try await DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_size")!, try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'rate_history_by_pair_time'")!)
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        handle.write(Data(count: pageSize))
        try handle.close()
        let findings = try AppDatabase.open(path: path).checkup().findings
        #expect(!findings.isEmpty && findings.allSatisfy { $0.check == "integrity" }, "\(findings)")
        #expect(findings.contains { $0.detail.contains("Page \(root)") }, "\(findings)")
    }
}
