/// One confirmed amount in a manual asset's history, as the ledger rules see it.
public struct LedgerEntry: Hashable, Sendable {
    public let txid: String
    public let amount: Int128
    public let date: Instant

    public init(txid: String, amount: Int128, date: Instant) {
        self.txid = txid
        self.amount = amount
        self.date = date
    }
}

/// The rules of SPEC.md section 4 for manual assets: no future dates, no zero amounts, and a
/// balance that never goes negative at any point in time, whatever is added, edited or deleted.
///
/// Amounts dated at the same instant are applied together: the balance "at a date" is the
/// balance after everything dated then.
public enum ManualLedger {
    /// Refuses a new entry that breaks a rule; `existing` is the asset's current history.
    public static func checkAdd(
        _ entry: LedgerEntry, existing: [LedgerEntry], now: Instant, currency: Currency
    ) throws(Refusal) {
        try checkAmountAndDate(entry, now: now)
        // A deposit only raises balances; it cannot be the cause of a shortfall.
        guard entry.amount < 0, let shortfall = firstShortfall(existing + [entry]) else { return }
        if shortfall.date == entry.date {
            let available = shortfall.balance - entry.amount
            throw Refusal(
                "withdrawal of \(money(-entry.amount, currency)) exceeds the balance of "
                    + "\(money(available, currency)) at \(entry.date.iso8601); "
                    + "withdraw at most \(money(max(0, available), currency)) or record the deposit that paid for it first")
        }
        throw Refusal(
            "this withdrawal would make the balance negative at \(shortfall.date.iso8601), "
                + "at transaction \(shortfall.txid) (balance \(money(shortfall.balance, currency))); "
                + "date it after the deposit that pays for it, or lower it")
    }

    /// Refuses an edit of `txid` to `replacement` that breaks a rule.
    public static func checkEdit(
        txid: String, replacement: LedgerEntry, existing: [LedgerEntry], now: Instant, currency: Currency
    ) throws(Refusal) {
        try checkAmountAndDate(replacement, now: now)
        let edited = existing.map { $0.txid == txid ? replacement : $0 }
        guard let shortfall = firstShortfall(edited) else { return }
        if shortfall.txid == txid {
            throw Refusal(
                "changing \(txid) to \(money(replacement.amount, currency)) at \(replacement.date.iso8601) "
                    + "would make the balance \(money(shortfall.balance, currency)) at that date; "
                    + "keep the withdrawal within the balance at its date")
        }
        throw Refusal(
            "changing \(txid) would make the balance negative at \(shortfall.date.iso8601), "
                + "at transaction \(shortfall.txid) (balance \(money(shortfall.balance, currency))); "
                + "edit or delete \(shortfall.txid) first")
    }

    /// Refuses deleting `txid` when a later withdrawal depended on it.
    public static func checkDelete(txid: String, existing: [LedgerEntry], currency: Currency) throws(Refusal) {
        guard let shortfall = firstShortfall(existing.filter { $0.txid != txid }) else { return }
        throw Refusal(
            "deleting \(txid) would make the balance negative at \(shortfall.date.iso8601), "
                + "at transaction \(shortfall.txid) (balance \(money(shortfall.balance, currency))); "
                + "delete or edit \(shortfall.txid) first")
    }

    /// The balance of `entries` at `instant` (everything dated at or before it).
    public static func balance(of entries: [LedgerEntry], at instant: Instant) -> Int128 {
        entries.reduce(0) { $1.date <= instant ? $0 + $1.amount : $0 }
    }

    private static func checkAmountAndDate(_ entry: LedgerEntry, now: Instant) throws(Refusal) {
        guard entry.amount != 0 else {
            throw Refusal("the amount is zero; a transaction must add (positive) or remove (negative) something")
        }
        guard entry.date <= now else {
            throw Refusal("the date \(entry.date.iso8601) is in the future (now is \(now.iso8601)); record a transaction once it has happened")
        }
    }

    /// The first point in time where the running balance is negative: its date, the balance
    /// there, and the withdrawal dated then that the message should name.
    public static func firstShortfall(_ entries: [LedgerEntry]) -> (date: Instant, balance: Int128, txid: String)? {
        let sorted = entries.sorted { ($0.date, $0.amount) < ($1.date, $1.amount) }
        var balance: Int128 = 0
        var index = 0
        while index < sorted.count {
            let date = sorted[index].date
            let groupStart = index
            while index < sorted.count, sorted[index].date == date {
                balance += sorted[index].amount
                index += 1
            }
            if balance < 0 {
                // Within a group the most negative amount sorts first: the withdrawal to name.
                return (date, balance, sorted[groupStart].txid)
            }
        }
        return nil
    }

    private static func money(_ minor: Int128, _ currency: Currency) -> String {
        Money(minorUnits: minor, currency: currency).description
    }
}
