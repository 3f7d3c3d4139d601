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

    /// Imports a BIP-329 file: `tx` records become tags on their txids, in one transaction, as
    /// the file is read a line at a time (memory stays bounded whatever its size; a line longer
    /// than ``BIP329/maximumLineBytes`` is invalid). A file with invalid lines (malformed JSON,
    /// bytes that are not UTF-8, a line too long) imports nothing and is refused naming them,
    /// unless `skipInvalid`.
    public func importLabels(file: String, skipInvalid: Bool) throws -> LabelImportReport {
        let reader = try LineReader(path: file, maximumLineBytes: BIP329.maximumLineBytes)
        var report = LabelImportReport()
        report.result = try database.importLabels(now: clock.now) { importer in
            try reader.forEachLine { line in
                switch line {
                case .tooLong(let number, let bytes):
                    report.noteInvalid(line: number, "longer than \(BIP329.maximumLineBytes) bytes (\(bytes)); a BIP-329 record is one JSON object on one line")
                case .text(let number, let bytes):
                    switch BIP329.record(bytes, isFirstLine: number == 1) {
                    case .blank: break
                    case .unlabelled:
                        report.txRecords += 1
                        report.unlabelled += 1
                    case .other(let type): report.skippedTypes[type, default: 0] += 1
                    case .invalid(let reason): report.noteInvalid(line: number, reason)
                    case .tx(let ref, let tags, let cut):
                        report.txRecords += 1
                        report.noteCut(line: number, cut)
                        // Once the file is refused, nothing more is worth writing: it is all rolled back.
                        if report.invalidCount == 0 || skipInvalid { try importer.add(txid: ref, tags: tags) }
                    }
                }
            }
            if report.invalidCount > 0 && !skipInvalid { throw report.refusal(file: file) }
        }.result
        return report
    }

    /// Every txid's tags as BIP-329 JSON lines, and how many txids that is.
    public func exportLabels() throws -> (text: String, transactions: Int) {
        let labels = try database.labels()
        return (BIP329.export(labels), labels.count)
    }
}
