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

    /// `source`'s stored verified headers among `heights`: hash (as displayed), time (Unix
    /// seconds) and the 80 bytes. Rows of v9, stored before headers were verified, are left out.
    public func blockHeaders(source: String, heights: [Int64]) async throws -> [Int64: (hash: String, time: Int64, raw: [UInt8])] {
        guard !heights.isEmpty else { return [:] }
        return try await read { db in
            var found: [Int64: (hash: String, time: Int64, raw: [UInt8])] = [:]
            for chunk in Self.chunks(heights) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT height, hash, time, raw FROM block_headers
                    WHERE source = ? AND raw IS NOT NULL AND height IN (\(Self.placeholders(chunk.count)))
                    """, arguments: StatementArguments([source] as [any DatabaseValueConvertible] + chunk))
                for row in rows { found[row["height"]] = (row["hash"], row["time"], [UInt8](row["raw"] as Data)) }
            }
            return found
        }
    }

    /// `source`'s highest stored verified header above `height`, with its 80 bytes.
    public func topBlockHeader(source: String, above height: Int64) async throws -> (height: Int64, raw: [UInt8])? {
        try await read { db in
            try Row.fetchOne(db, sql: """
                SELECT height, raw FROM block_headers WHERE source = ? AND height > ? AND raw IS NOT NULL ORDER BY height DESC LIMIT 1
                """, arguments: [source, height]).map { ($0["height"], [UInt8]($0["raw"] as Data)) }
        }
    }

    /// `source`'s stored proofs among `txids`: the height and hash of the block each was proven in.
    public func transactionProofs(source: String, txids: [String]) async throws -> [String: (height: Int64, blockHash: String)] {
        guard !txids.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: (height: Int64, blockHash: String)] = [:]
            for chunk in Self.chunks(txids) {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT txid, height, block_hash FROM transaction_proofs WHERE source = ? AND txid IN (\(Self.placeholders(chunk.count)))
                    """, arguments: StatementArguments([source] as [any DatabaseValueConvertible] + chunk))
                for row in rows { found[row["txid"]] = (row["height"], row["block_hash"]) }
            }
            return found
        }
    }

    /// The highest block a stored history of `source` lists a transaction in; nil when none is confirmed.
    public func highestConfirmedHeight(source: String) async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(height) FROM script_histories WHERE source = ? AND height > 0", arguments: [source])
        }
    }

    /// The scripts of `source` whose stored history lists a confirmed transaction without a
    /// proof that holds: none stored, one for another height, or one whose block is not the
    /// stored verified header at that height (a reorg replaced it, or v9 stored it unverified).
    public func unprovenScripts(source: String) async throws -> Set<String> {
        try await read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT h.script FROM script_histories h
                LEFT JOIN transaction_proofs p ON p.source = h.source AND p.txid = h.txid AND p.height = h.height
                LEFT JOIN block_headers b ON b.source = h.source AND b.height = h.height AND b.hash = p.block_hash AND b.raw IS NOT NULL
                WHERE h.source = ? AND h.height > 0 AND b.height IS NULL
                """, arguments: [source]))
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

    /// Keeps the source's verified headers (hash, time, 80 bytes); first forgets those from
    /// `invalidFrom` up, which a reorg replaced.
    public func saveBlockHeaders(_ headers: [Int64: (hash: String, time: Int64, raw: [UInt8])], invalidFrom: Int64?) throws {
        if let invalidFrom {
            try db.execute(sql: "DELETE FROM block_headers WHERE source = ? AND height >= ?", arguments: [source, invalidFrom])
        }
        for (height, header) in headers {
            try db.execute(sql: """
                INSERT INTO block_headers (source, height, hash, time, raw) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(source, height) DO UPDATE SET hash = excluded.hash, time = excluded.time, raw = excluded.raw
                """, arguments: [source, height, header.hash, header.time, Data(header.raw)])
        }
    }

    /// Keeps the block each transaction was proven in (replacing an earlier proof).
    public func saveTransactionProofs(_ proofs: [String: (height: Int64, blockHash: String)]) throws {
        for (txid, proof) in proofs {
            try db.execute(sql: """
                INSERT INTO transaction_proofs (source, txid, height, block_hash) VALUES (?, ?, ?, ?)
                ON CONFLICT(source, txid) DO UPDATE SET height = excluded.height, block_hash = excluded.block_hash
                """, arguments: [source, txid, proof.height, proof.blockHash])
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
