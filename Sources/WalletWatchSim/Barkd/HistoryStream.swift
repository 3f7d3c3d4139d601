/// A wallet's history at one moment, newest first: the stored movements merged with the
/// generated ones, produced one at a time so that a million movements never sit in memory.
/// A stored movement with a generated id replaces the generated one (an updated movement).
struct HistoryStream: Sendable, Sequence {
    /// Stored movements, ascending by id.
    let stored: [BarkdMovement]
    let generator: MovementGenerator?
    /// barkd's `type` + `value` filter.
    let filter: BarkdPaymentMethod?
    /// The rendered bytes kept for a prerendered history (only for the whole, unedited history).
    var rendered: RenderedHistory? = nil

    func makeIterator() -> Iterator {
        Iterator(stream: self, storedIndex: stored.count - 1, nextGenerated: generator?.count ?? 0)
    }

    struct Iterator: IteratorProtocol {
        let stream: HistoryStream
        var storedIndex: Int
        var nextGenerated: Int

        mutating func next() -> BarkdMovement? {
            while true {
                guard let movement = nextUnfiltered() else { return nil }
                if let filter = stream.filter, !movement.involves(filter) { continue }
                return movement
            }
        }

        private mutating func nextUnfiltered() -> BarkdMovement? {
            let storedID = storedIndex >= 0 ? stream.stored[storedIndex].id : 0
            if storedIndex >= 0, storedID >= nextGenerated {
                if storedID == nextGenerated { nextGenerated -= 1 }
                storedIndex -= 1
                return stream.stored[storedIndex + 1]
            }
            guard nextGenerated > 0, let generator = stream.generator else { return nil }
            defer { nextGenerated -= 1 }
            return generator.movement(id: nextGenerated)
        }
    }
}
