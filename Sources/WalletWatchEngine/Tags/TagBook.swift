import WalletWatchCore
import WalletWatchStore

/// Tags and where they are attached (SPEC.md section 3: a junction table keyed by txid, so
/// that no refresh can lose one), and their BIP-329 import and export.
public struct TagBook: Sendable {
    let database: AppDatabase
    let clock: WallClock

    init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Creates a tag after checking its name, colour and emoji.
    public func create(name: String, color: String?, emoji: String?) throws -> Tag {
        try database.createTag(name: try TagRules.name(name), colorHex: try color.map { c throws(UsageError) in try TagRules.color(c) },
                               emoji: try emoji.map { e throws(UsageError) in try TagRules.emoji(e) }, now: clock.now)
    }

    /// Every tag with how many transactions carry it.
    public func summaries() throws -> [TagSummary] {
        try database.tagSummaries()
    }

    /// Renames a tag; its assignments follow.
    public func rename(_ name: String, to newName: String) throws -> Tag {
        try database.renameTag(name, to: try TagRules.name(newName))
    }

    /// Activates or deactivates a tag.
    public func setActive(_ name: String, _ active: Bool) throws -> Tag {
        try database.setTag(name, active: active)
    }

    /// Deletes a tag and its assignments; returns the tag and how many it had.
    public func delete(_ name: String) throws -> (tag: Tag, assignments: Int) {
        let (tag, count) = try database.deleteTag(name)
        return (tag, count)
    }

    /// Attaches tags to a txid (creating tags that do not exist yet); returns the names attached now.
    public func tag(txid: String, with names: [String]) throws -> [String] {
        try database.tagTransaction(txid: txid, tags: names.map { name throws(UsageError) in try TagRules.name(name) }, now: clock.now)
    }

    /// Detaches tags from a txid; returns the names that were not attached.
    public func untag(txid: String, tags names: [String]) throws -> [String] {
        try database.untagTransaction(txid: txid, tags: names)
    }

    /// Imports parsed BIP-329 labels: `tx` records become tags on their txids.
    public func importLabels(_ parsed: BIP329.ParseResult) throws -> LabelImportResult {
        try database.importLabels(parsed.labels, now: clock.now)
    }

    /// Every txid's tags as BIP-329 JSON lines, and how many txids that is.
    public func exportLabels() throws -> (text: String, transactions: Int) {
        let labels = try database.labels()
        return (BIP329.export(labels), labels.count)
    }
}
