/// A transaction with what every view shows beside it.
public struct TransactionListing: Hashable, Sendable {
    public var transaction: Transaction
    public var assetName: String
    public var currency: Currency
    /// Names of the tags on its txid, alphabetically.
    public var tags: [String]
    /// Its value in the display currency at its date; nil where the listing was not valued.
    public var value: TransactionValue?

    /// The signed amount as money.
    public var money: Money { Money(minorUnits: transaction.amount, currency: currency) }

    public init(transaction: Transaction, assetName: String, currency: Currency, tags: [String]) {
        self.transaction = transaction
        self.assetName = assetName
        self.currency = currency
        self.tags = tags
    }
}

/// A transaction's value in another currency at its date (SPEC.md section 17: `value_at_date`).
public struct TransactionValue: Hashable, Sendable {
    public let currency: Currency
    /// Minor units of `currency`, signed like the amount; nil when no rate is known at or
    /// before the transaction's date.
    public let amount: Int128?

    public init(currency: Currency, amount: Int128?) {
        self.currency = currency
        self.amount = amount
    }

    /// The value as money, or nil without a rate.
    public var money: Money? { amount.map { Money(minorUnits: $0, currency: currency) } }
}
