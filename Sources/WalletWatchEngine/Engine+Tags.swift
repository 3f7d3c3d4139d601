import WalletWatchCore
import WalletWatchStore

extension Engine {
    /// Creates a tag after checking its name, colour and emoji.
    public func createTag(name: String, color: String?, emoji: String?) throws -> Tag {
        try database.createTag(name: try TagRules.name(name), colorHex: try color.map { c throws(UsageError) in try TagRules.color(c) },
                               emoji: try emoji.map { e throws(UsageError) in try TagRules.emoji(e) }, now: clock.now)
    }

    /// Renames a tag; its transactions keep it.
    public func renameTag(_ name: String, to newName: String) throws -> Tag {
        try database.renameTag(name, to: try TagRules.name(newName))
    }

    /// Tags a transaction, creating missing tags.
    public func tag(txid: String, with names: [String]) throws -> [String] {
        try database.tagTransaction(txid: txid, tags: names.map { name throws(UsageError) in try TagRules.name(name) }, now: clock.now)
    }

    /// Imports BIP-329 labels parsed from a file.
    public func importLabels(_ parsed: BIP329.ParseResult) throws -> LabelImportResult {
        try database.importLabels(parsed.labels, now: clock.now)
    }
}
