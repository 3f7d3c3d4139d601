import Foundation
import GRDB
import WalletWatchCore

extension AppDatabase {
    /// Creates a tag.
    public func createTag(name: String, colorHex: String?, emoji: String?, now: Instant) throws -> Tag {
        try write { db in
            try Self.ensureNameIsFree(db, table: Tag.databaseTableName, name: name, what: "tag")
            let tag = Tag(name: name, colorHex: colorHex, emoji: emoji, createdAt: now)
            try tag.insert(db)
            try Self.bumpChangeCounter(db)
            return tag
        }
    }

    /// Every tag, alphabetically, with its counts.
    public func tagSummaries() throws -> [TagSummary] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT a.tag_id,
                       COUNT(DISTINCT CASE WHEN EXISTS (SELECT 1 FROM transactions t WHERE t.txid = a.txid) THEN a.txid END) AS present,
                       COUNT(DISTINCT CASE WHEN NOT EXISTS (SELECT 1 FROM transactions t WHERE t.txid = a.txid) THEN a.txid END) AS waiting
                FROM tag_assignments a GROUP BY a.tag_id
                """)
            var counts: [String: (Int, Int)] = [:]
            for row in rows { counts[row["tag_id"]] = (row["present"], row["waiting"]) }
            return try Tag.fetchAll(db)
                .sorted { $0.name.lowercased() < $1.name.lowercased() }
                .map { tag in
                    let count = counts[tag.id.uuidString.lowercased()] ?? (0, 0)
                    return TagSummary(tag: tag, transactions: count.0, waiting: count.1)
                }
        }
    }

    /// Renames a tag; its assignments stay.
    public func renameTag(_ name: String, to newName: String) throws -> Tag {
        try write { db in
            var tag = try Self.findTag(db, named: name)
            if Name.key(newName) != Name.key(tag.name) {
                try Self.ensureNameIsFree(db, table: Tag.databaseTableName, name: newName, what: "tag")
            }
            tag.name = newName
            try tag.update(db)
            try Self.bumpChangeCounter(db)
            return tag
        }
    }

    /// Activates or deactivates a tag. A deactivated tag stays on its transactions but cannot
    /// be newly assigned.
    public func setTag(_ name: String, active: Bool) throws -> Tag {
        try write { db in
            var tag = try Self.findTag(db, named: name)
            tag.isActive = active
            try tag.update(db)
            try Self.bumpChangeCounter(db)
            return tag
        }
    }

    /// Deletes a tag and only its assignments. Returns the tag and how many assignments went.
    public func deleteTag(_ name: String) throws -> (Tag, Int) {
        try write { db in
            let tag = try Self.findTag(db, named: name)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag_assignments WHERE tag_id = ?",
                                         arguments: [tag.id.uuidString.lowercased()]) ?? 0
            try tag.delete(db)
            try Self.bumpChangeCounter(db)
            return (tag, count)
        }
    }

    /// Tags a transaction (every asset row with that txid). Tags that do not exist yet are
    /// created; a deactivated tag is refused. Returns the names of the tags created.
    public func tagTransaction(txid: String, tags names: [String], now: Instant) throws -> [String] {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions WHERE txid = ?", arguments: [txid])! > 0 else {
                throw Self.unknownTxid(txid)
            }
            var created: [String] = []
            for name in names {
                let tag = try Self.tag(db, named: name, creatingAt: now, created: &created)
                guard tag.isActive else {
                    throw Refusal("tag '\(tag.name)' is deactivated: it stays on its transactions but takes no new ones; `walletwatch tag activate \(tag.name)` first")
                }
                try Self.assign(db, tag: tag, txid: txid, now: now)
            }
            try Self.bumpChangeCounter(db)
            return created
        }
    }

    /// Removes tags from a transaction. Returns the names that were not on it.
    public func untagTransaction(txid: String, tags names: [String]) throws -> [String] {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag_assignments WHERE txid = ?", arguments: [txid])! > 0
                    || Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions WHERE txid = ?", arguments: [txid])! > 0
            else { throw Self.unknownTxid(txid) }
            var absent: [String] = []
            for name in names {
                let tag = try Self.findTag(db, named: name)
                try db.execute(sql: "DELETE FROM tag_assignments WHERE tag_id = ? AND txid = ?",
                               arguments: [tag.id.uuidString.lowercased(), txid])
                if db.changesCount == 0 { absent.append(tag.name) }
            }
            try Self.bumpChangeCounter(db)
            return absent
        }
    }

    /// Every tagged txid (ingested or waiting) with its tag names, alphabetically: the
    /// content of a BIP-329 export.
    public func labels() throws -> [(txid: String, tags: [String])] {
        try read { db in
            try Self.tagNames(db, txids: nil).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// Imports labels in one transaction, as `feed` reads them and hands them to the importer
    /// (``LabelImporter/add(txid:tags:)``): missing tags are created, labels for txids not
    /// ingested yet are kept and apply when those arrive, labels naming a deactivated tag are
    /// skipped and counted. Memory does not grow with the number of labels. When `feed` throws
    /// (a refused file), nothing of it is written.
    public func importLabels<T>(now: Instant, _ feed: (inout LabelImporter) throws -> T) throws -> (value: T, result: LabelImportResult) {
        do {
            return try writer.write { db in
                var importer = try LabelImporter(db, now: now)
                let value = try feed(&importer)
                let result = try importer.finish()
                try Self.bumpChangeCounter(db)
                return (value, result)
            }
        } catch {
            throw translate(error, writing: true)
        }
    }

    /// Imports labels (txid -> tag names) held in memory, in one transaction (see
    /// ``importLabels(now:_:)``).
    public func importLabels(_ labels: [(txid: String, tags: [String])], now: Instant) throws -> LabelImportResult {
        try importLabels(now: now) { importer in
            for (txid, names) in labels { try importer.add(txid: txid, tags: names) }
        }.result
    }

    // MARK: - Helpers

    static func findTag(_ db: Database, named name: String) throws -> Tag {
        let key = Name.key(name)
        guard let tag = try Tag.fetchAll(db).first(where: { Name.key($0.name) == key }) else {
            throw Refusal("no tag named '\(name.trimmingSpaces)'; `walletwatch tag list` shows the tags")
        }
        return tag
    }

    /// The tag called `name`, created (active, no colour) when missing.
    private static func tag(_ db: Database, named name: String, creatingAt now: Instant, created: inout [String]) throws -> Tag {
        let key = Name.key(name)
        if let tag = try Tag.fetchAll(db).first(where: { Name.key($0.name) == key }) { return tag }
        let tag = Tag(name: name, createdAt: now)
        try tag.insert(db)
        created.append(name)
        return tag
    }

    /// Assigns a tag to a txid; returns false when it was already there.
    @discardableResult
    private static func assign(_ db: Database, tag: Tag, txid: String, now: Instant) throws -> Bool {
        try db.execute(sql: """
            INSERT INTO tag_assignments (id, tag_id, txid, assigned_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(tag_id, txid) DO NOTHING
            """, arguments: [UUID().uuidString.lowercased(), tag.id.uuidString.lowercased(), txid, now])
        return db.changesCount > 0
    }
}
