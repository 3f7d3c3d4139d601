import WalletWatchCore

extension JSONReader {
    /// `entries` of one answer with each id once (SPEC.md section 24): an entry repeated with the
    /// same contents counts once; the same id with different contents refuses the whole answer,
    /// naming the id (which copy would be the truth cannot be known, and keeping the first one
    /// silently would store whichever the source happened to list first).
    func withoutRepeats<Entry: Equatable>(_ entries: [Entry], what: String, id: (Entry) -> String) throws -> [Entry] {
        var seen: [String: Int] = [:]
        var unique: [Entry] = []
        unique.reserveCapacity(entries.count)
        for entry in entries {
            let key = id(entry)
            if let first = seen[key] {
                guard unique[first] == entry else {
                    throw error("\(what) \(DisplaySafety.escaped(key)) is listed twice with different contents")
                }
                continue
            }
            seen[key] = unique.count
            unique.append(entry)
        }
        return unique
    }
}
