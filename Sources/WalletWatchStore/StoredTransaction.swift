import WalletWatchCore

/// A transaction as stored, with the fields an ingest compares.
struct StoredTransaction: Sendable {
    let amount: Int128
    let type: String
    let status: String
    /// ISO 8601 text, as stored.
    let date: String
    let fee: Int128?
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

/// A source's answer listed one txid (a barkd movement id, an on-chain txid) twice with
/// different contents: which copy is true cannot be known, so the pass is refused whole
/// (SPEC.md section 24). The same contents twice count once and are no error.
public struct RepeatedTransaction: Classified {
    public let source: String
    public let txid: String
    /// How each copy reads: "5000 confirmed 2026-11-01T10:00:00.000Z" (the amount in the
    /// asset's smallest unit: sat, wei...).
    public let first: String
    public let then: String

    init(source: String, first: ObservedTransaction, then: ObservedTransaction) {
        self.source = source
        txid = then.txid
        self.first = Self.describe(amount: first.amount, status: first.status.rawValue, date: first.date?.iso8601)
        self.then = Self.describe(amount: then.amount, status: then.status.rawValue, date: then.date?.iso8601)
    }

    init(source: String, stored first: StoredTransaction, then: ObservedTransaction) {
        self.source = source
        txid = then.txid
        self.first = Self.describe(amount: first.amount, status: first.status, date: first.date)
        self.then = Self.describe(amount: then.amount, status: then.status.rawValue, date: then.date?.iso8601 ?? first.date)
    }

    private static func describe(amount: Int128, status: String, date: String?) -> String {
        "\(amount) \(status)" + (date.map { " \($0)" } ?? "")
    }

    public var description: String {
        "source '\(source)': its answer lists \(DisplaySafety.escaped(txid)) twice with different contents (\(first), then \(then)); nothing of this pass was stored"
    }

    public var kind: ErrorKind { .runtime }
}
