import Foundation
import GRDB
import WalletWatchCore

/// What an electrum source keeps between passes (SPEC.md section 21, migration v9-electrum):
/// raw transactions, block headers and scripts' histories. Read through ordinary reads while a
/// pass compares; written in the pass's publication.
extension AppDatabase {
    /// The stored raw transactions among `txids`.
    public func rawTransactions(_ txids: [String]) async throws -> [String: [UInt8]] {
        guard !txids.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: [UInt8]] = [:]
            for chunk in Self.chunks(txids) {
                let rows = try Row.fetchAll(db, sql: "SELECT txid, raw FROM chain_transactions WHERE txid IN (\(Self.placeholders(chunk.count)))",
                                            arguments: StatementArguments(chunk))
                for row in rows { found[row["txid"]] = [UInt8](row["raw"] as Data) }
            }
            return found
        }
    }

    /// `source`'s stored headers among `heights`: hash (as displayed) and time (Unix seconds).
    public func blockHeaders(source: String, heights: [Int64]) async throws -> [Int64: (hash: String, time: Int64)] {
        guard !heights.isEmpty else { return [:] }
        return try await read { db in
            var found: [Int64: (hash: String, time: Int64)] = [:]
            for chunk in Self.chunks(heights) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT height, hash, time FROM block_headers WHERE source = ? AND height IN (\(Self.placeholders(chunk.count)))
                    """, arguments: StatementArguments([source] as [any DatabaseValueConvertible] + chunk))
                for row in rows { found[row["height"]] = (row["hash"], row["time"]) }
            }
            return found
        }
    }

    /// `source`'s stored history of each of `scripts` (hex), in the server's order.
    public func scriptHistories(source: String, scripts: [String]) async throws -> [String: [(txid: String, height: Int64)]] {
        guard !scripts.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: [(txid: String, height: Int64)]] = [:]
            for chunk in Self.chunks(scripts) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT script, txid, height FROM script_histories WHERE source = ? AND script IN (\(Self.placeholders(chunk.count)))
                    ORDER BY script, position
                    """, arguments: StatementArguments([source] as [any DatabaseValueConvertible] + chunk))
                for row in rows { found[row["script"], default: []].append((row["txid"], row["height"])) }
            }
            return found
        }
    }

    /// Which of `txids` a stored history of `source` lists for a script outside `excluding`.
    public func txidsListed(source: String, txids: [String], excluding scripts: Set<String>) async throws -> Set<String> {
        guard !txids.isEmpty else { return [] }
        return try await read { db in
            var found: Set<String> = []
            for chunk in Self.chunks(txids) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT script, txid FROM script_histories WHERE source = ? AND txid IN (\(Self.placeholders(chunk.count)))
                    """, arguments: StatementArguments([source] as [any DatabaseValueConvertible] + chunk))
                for row in rows where !scripts.contains(row["script"]) { found.insert(row["txid"]) }
            }
            return found
        }
    }

    /// SQLite binds at most 32,766 parameters a statement: long lists go in pieces.
    static func chunks<T>(_ values: [T]) -> [[T]] {
        stride(from: 0, to: values.count, by: 500).map { Array(values[$0..<min($0 + 500, values.count)]) }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }
}

extension PassPublication {
    /// Keeps raw transactions (a txid is the same bytes everywhere: a row already there stays).
    public func saveRawTransactions(_ transactions: [String: [UInt8]]) throws {
        for (txid, raw) in transactions {
            try db.execute(sql: "INSERT INTO chain_transactions (txid, raw) VALUES (?, ?) ON CONFLICT(txid) DO NOTHING",
                           arguments: [txid, Data(raw)])
        }
    }

    /// Keeps the source's headers; first forgets those from `invalidFrom` up, which a reorg replaced.
    public func saveBlockHeaders(_ headers: [Int64: (hash: String, time: Int64)], invalidFrom: Int64?) throws {
        if let invalidFrom {
            try db.execute(sql: "DELETE FROM block_headers WHERE source = ? AND height >= ?", arguments: [source, invalidFrom])
        }
        for (height, header) in headers {
            try db.execute(sql: """
                INSERT INTO block_headers (source, height, hash, time) VALUES (?, ?, ?, ?)
                ON CONFLICT(source, height) DO UPDATE SET hash = excluded.hash, time = excluded.time
                """, arguments: [source, height, header.hash, header.time])
        }
    }

    /// Replaces the stored history of each script in `histories` (by script hex).
    public func saveScriptHistories(_ histories: [String: [(txid: String, height: Int64)]]) throws {
        for (script, history) in histories {
            try db.execute(sql: "DELETE FROM script_histories WHERE source = ? AND script = ?", arguments: [source, script])
            for (position, entry) in history.enumerated() {
                try db.execute(sql: "INSERT INTO script_histories (source, script, position, txid, height) VALUES (?, ?, ?, ?, ?)",
                               arguments: [source, script, position, entry.txid, entry.height])
            }
        }
    }
}
