import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchStore

/// Amounts of 128 bits in a 64-bit database (StoredAmount, Schema.version11): the extremes come
/// back exactly, every value has one stored form, and sums are exact or an error.
@Suite("Exact amounts beyond 64 bits in SQLite")
struct StoredAmountTests {
    let now = Instant.at("2026-11-21T12:00:00Z")

    /// The extremes and the values around the 64-bit limits.
    static let extremes: [Int128] = [
        Int128.min, Int128.min + 1, -Int128(Int64.max) - 2, Int128(Int64.min), -1, 0, 1,
        Int128(Int64.max), Int128(Int64.max) + 1, 12_345_678_901_234_567_891, Int128.max,
    ]

    @Test("every amount from Int128.min to Int128.max is stored and read back exactly, through an ingest pass")
    func extremesThroughThePass() async throws {
        let database = try AppDatabase.inMemory()
        var pass = try await database.beginPass(source: "chain", now: now)
        let asset = try await pass.asset(.evm, currency: .eth, named: "Ledger ETH")
        let observed = Self.extremes.enumerated().map { index, amount in
            ObservedTransaction(txid: "evm:1:0x\(index)", amount: amount, type: .onchain, status: .pending,
                                date: now.adding(seconds: -Int64(index)), fee: amount < 0 && amount != .min ? -amount : nil)
        }
        try await pass.record(observed, in: asset)
        _ = try await pass.publish(startedAt: now) { _ in }
        let stored = try await database.read { db in try Transaction.fetchAll(db, sql: "SELECT * FROM transactions") }
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.txid, $0.amount) })
            == Dictionary(uniqueKeysWithValues: observed.map { ($0.txid, $0.amount) }))
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.txid, $0.fee) })
            == Dictionary(uniqueKeysWithValues: observed.map { ($0.txid, $0.fee) }))
        // Within 64 bits an amount is an INTEGER, exactly as before; beyond, the text of its digits.
        let forms = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT typeof(amount) AS form, amount FROM ledger ORDER BY rowid").map { ($0["form"] as String, $0["amount"] as DatabaseValue) }
        }
        for ((form, value), amount) in zip(forms, Self.extremes) {
            let fits = Int64(exactly: amount) != nil
            #expect(form == (fits ? "integer" : "text"), "\(amount)")
            if !fits { #expect(value == String(amount).databaseValue, "\(amount)") }
        }
    }

    @Test("a value has one stored form: text for a value within 64 bits, or any other spelling, is refused")
    func oneFormPerValue() throws {
        let database = try AppDatabase.inMemory()
        _ = try database.createManualAsset(name: "Cash", currency: .usd, now: now)
        let refused = ["123", "0", "-0", "09223372036854775808", "9223372036854775807", "-9223372036854775808", "1e30",
                       "+9223372036854775808", "9223372036854775808.0", " 9223372036854775808", "--9223372036854775808"]
        for text in refused {
            #expect(throws: (any Error).self, "\(text)") {
                try database.write { db in
                    try db.execute(sql: """
                        INSERT INTO ledger (txid, asset_id, amount, type, status, direction, date, first_seen_at, last_updated)
                        VALUES (?, 1, ?, 'manual', 'confirmed', 'incoming', ?, ?, ?)
                        """, arguments: ["manual:\(text)", text, now, now, now])
                }
            }
        }
        for text in ["9223372036854775808", "-9223372036854775809", String(Int128.max), String(Int128.min)] {
            try database.write { db in
                try db.execute(sql: """
                    INSERT INTO ledger (txid, asset_id, amount, type, status, direction, date, first_seen_at, last_updated)
                    VALUES (?, 1, ?, 'manual', 'confirmed', 'incoming', ?, ?, ?)
                    """, arguments: ["manual:\(text)", text, now, now, now])
            }
        }
        // A goal's target cannot be negative in either form.
        #expect(throws: (any Error).self) {
            try database.write { db in
                try db.execute(sql: "INSERT INTO goals (name, currency, target, created_at) VALUES ('G', 'ETH', '-9223372036854775809', ?)", arguments: [now])
            }
        }
    }

    @Test("amount_sum adds both forms exactly, and an overflow past 128 bits is an error, never a wrong figure")
    func sums() throws {
        let database = try AppDatabase.inMemory()
        let values: [Int128] = [Int128(Int64.max), Int128(Int64.max), 5, -7, 12_345_678_901_234_567_891_000]
        let total = try database.read { db -> Int128? in
            let rows = values.map { "SELECT \(Int64(exactly: $0).map(String.init) ?? "'\($0)'") AS x" }.joined(separator: " UNION ALL ")
            return try StoredAmount.fetchOne(db, sql: "SELECT amount_sum(x) FROM (\(rows))")?.value
        }
        // Worked by hand: 2 x 9223372036854775807 = 18446744073709551614; + 5 - 7 = 18446744073709551612;
        // + 12345678901234567891000 = 12364125645308277442612.
        #expect(total == 12_364_125_645_308_277_442_612)
        let empty = try database.read { db in try DatabaseValue.fetchOne(db, sql: "SELECT amount_sum(x) FROM (SELECT 1 AS x WHERE 0)") }
        #expect(empty == .null)
        #expect(throws: (any Error).self) {
            try database.read { db in
                try DatabaseValue.fetchOne(db, sql: "SELECT amount_sum(x) FROM (SELECT '\(Int128.max)' AS x UNION ALL SELECT 1)")
            }
        }
    }

    @Test("a manual asset's balance is the exact sum of its transactions beyond 64 bits")
    func manualBalance() throws {
        let database = try AppDatabase.inMemory()
        let asset = try database.createManualAsset(name: "Stash", currency: .eth, now: now)
        for (day, amount) in ["9.5", "9.5", "-0.000000000000000001"].enumerated() {
            _ = try database.addManualTransaction(assetName: "Stash", amount: amount, date: now.adding(seconds: Int64(day - 3) * 86_400),
                                                  note: nil, now: now)
        }
        #expect(try database.balances()[asset.id!]?.counted == 18_999_999_999_999_999_999)
    }
}
