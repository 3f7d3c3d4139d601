import WalletWatchCore

/// The first id that an answer lists twice with different contents.
struct RepeatedEntry: Error {
    let id: String
}

/// `entries` of one answer with each id once (SPEC.md section 24): an entry repeated with the
/// same contents counts once; the same id with different contents refuses the whole answer
/// (which copy would be the truth cannot be known, and keeping the first one silently would
/// store whichever the source happened to list first).
func withoutRepeats<Entry: Equatable>(_ entries: [Entry], id: (Entry) -> String) throws(RepeatedEntry) -> [Entry] {
    var seen: [String: Int] = [:]
    var unique: [Entry] = []
    unique.reserveCapacity(entries.count)
    for entry in entries {
        let key = id(entry)
        if let first = seen[key] {
            guard unique[first] == entry else { throw RepeatedEntry(id: key) }
            continue
        }
        seen[key] = unique.count
        unique.append(entry)
    }
    return unique
}

extension JSONReader {
    /// ``withoutRepeats(_:id:)`` with the refusal as this reader's error, naming the id.
    func withoutRepeats<Entry: Equatable>(_ entries: [Entry], what: String, id: (Entry) -> String) throws -> [Entry] {
        do {
            return try WalletWatchSources.withoutRepeats(entries, id: id)
        } catch {
            throw self.error("\(what) \(DisplaySafety.escaped(error.id)) is listed twice with different contents")
        }
    }
}
