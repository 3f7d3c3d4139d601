/// A transaction with what every view shows beside it.
public struct TransactionListing: Hashable, Sendable {
    public var transaction: Transaction
    public var assetName: String
    public var currency: Currency
    /// Names of the tags on its txid, alphabetically.
    public var tags: [String]

    /// The signed amount as money.
    public var money: Money { Money(minorUnits: transaction.amount, currency: currency) }

    public init(transaction: Transaction, assetName: String, currency: Currency, tags: [String]) {
        self.transaction = transaction
        self.assetName = assetName
        self.currency = currency
        self.tags = tags
    }
}
