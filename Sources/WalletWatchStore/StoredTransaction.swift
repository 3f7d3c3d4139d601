import WalletWatchCore

/// A transaction as stored, with the fields an ingest compares.
struct StoredTransaction: Sendable {
    let amount: Int64
    let type: String
    let status: String
    /// ISO 8601 text, as stored.
    let date: String
    let fee: Int64?
    let round: Int64?
    let boardTxid: String?
    let counterparty: String?
    let autoAllocated: Bool

    /// What to write when the source reports `observed` differently; nil when nothing changed.
    /// The source's date wins when it gives one; otherwise the first stored date stays (an
    /// estimate never rewrites a row).
    func change(to observed: ObservedTransaction) -> TransactionChange? {
        let storedDate = Instant(iso8601: date)
        let newDate = observed.date ?? storedDate ?? Instant(millisecondsSinceEpoch: 0)
        let newCounterparty = observed.counterparty ?? counterparty
        let sameKind = observed.amount == amount && observed.type.rawValue == type && observed.status.rawValue == status
        let sameTime = newDate == storedDate
        let sameDetails = observed.fee == fee && observed.round == round && observed.boardTxid == boardTxid
            && newCounterparty == counterparty
        guard !(sameKind && sameTime && sameDetails) else { return nil }
        return TransactionChange(observed: observed, date: newDate, counterparty: newCounterparty,
                                 becameConfirmed: status != TransactionStatus.confirmed.rawValue && observed.status == .confirmed && !autoAllocated)
    }
}

/// A changed transaction to write.
struct TransactionChange: Sendable {
    let observed: ObservedTransaction
    let date: Instant
    let counterparty: String?
    /// It was not confirmed before (and Rule 1 has not been applied to it).
    let becameConfirmed: Bool
}
