/// A tag with how many transactions carry it.
public struct TagSummary: Hashable, Sendable {
    public let tag: Tag
    /// Distinct ingested or manual transactions (txids) carrying the tag.
    public let transactions: Int
    /// Labels imported for txids not in the ledger yet: they apply when those arrive.
    public let waiting: Int

    public init(tag: Tag, transactions: Int, waiting: Int) {
        self.tag = tag
        self.transactions = transactions
        self.waiting = waiting
    }
}
