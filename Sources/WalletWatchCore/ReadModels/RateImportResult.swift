/// What `rates import` wrote.
public struct RateImportResult: Hashable, Sendable {
    /// Prices added to the history.
    public let imported: Int
    /// Of those, how many replaced an earlier import of the same pair and date (`--replace`).
    public let replaced: Int
    /// Pairs whose latest rate is now an imported one.
    public let latestUpdated: [CurrencyPair]

    public init(imported: Int, replaced: Int, latestUpdated: [CurrencyPair]) {
        self.imported = imported
        self.replaced = replaced
        self.latestUpdated = latestUpdated
    }
}
