/// Decides which reminders the deposits fulfil (SPEC.md section 19).
///
/// A reminder due on D is fulfilled by confirmed incoming transactions of its asset dated in
/// its ``ReminderWindow`` whose values in the plan's currency (each converted at its own date)
/// add up to at least the plan's amount; it is missed once the window has passed without
/// that. A deposit counts for one reminder at most, whole: one deposit of 200 does not fulfil
/// two weekly reminders of 100 (it was one payment, and saying it was two would hide a missed
/// week), and what it brings above the amount is not carried over. Reminders take deposits in
/// the order of their due dates (then of their plans' names), each the earliest deposits of
/// its window that nobody took before it, until it is covered.
///
/// A reminder stays pending past its window while it cannot be decided: a deposit in its window
/// is still unconfirmed (it may yet count), or a deposit's value cannot be known because no
/// rate exists at its date.
public enum ReminderMatcher {
    /// A reminder not decided yet.
    public struct Reminder: Hashable, Sendable {
        /// The plan's database id.
        public let planID: Int64
        /// The plan's name (orders reminders due the same day).
        public let planName: String
        /// The asset whose deposits count.
        public let assetID: Int64
        /// The due date.
        public let due: Day
        /// The amount to cover, in minor units of `currency`.
        public let amount: Int128
        /// The plan's currency, in which deposits are valued.
        public let currency: Currency

        public init(planID: Int64, planName: String, assetID: Int64, due: Day, amount: Int128, currency: Currency) {
            self.planID = planID
            self.planName = planName
            self.assetID = assetID
            self.due = due
            self.amount = amount
            self.currency = currency
        }
    }

    /// An incoming transaction that no reminder or automatic plan has taken yet.
    public struct Deposit: Hashable, Sendable {
        /// The asset it was paid into.
        public let assetID: Int64
        /// The transaction's txid.
        public let txid: String
        /// Minor units of `currency` (the asset's); positive.
        public let amount: Int128
        /// The asset's currency.
        public let currency: Currency
        /// The transaction's date (an on-chain one's block time once confirmed).
        public let date: Instant
        /// False while the transaction is pending: it does not count yet, but may.
        public let confirmed: Bool

        public init(assetID: Int64, txid: String, amount: Int128, currency: Currency, date: Instant, confirmed: Bool) {
            self.assetID = assetID
            self.txid = txid
            self.amount = amount
            self.currency = currency
            self.date = date
            self.confirmed = confirmed
        }
    }

    /// What becomes of one reminder.
    public enum Outcome: Hashable, Sendable {
        /// Covered by these deposits, each with its value in the plan's currency.
        case fulfilled([Claim])
        /// Its window passed without enough.
        case missed
        /// Not decided yet; `waitingFor` says why when its window has passed.
        case pending(waitingFor: Waiting?)
    }

    /// A deposit taken by a reminder, with the value it counted for.
    public struct Claim: Hashable, Sendable {
        /// The deposit's txid.
        public let txid: String
        /// What it counted for, in minor units of the plan's currency.
        public let value: Int128

        public init(txid: String, value: Int128) {
            self.txid = txid
            self.value = value
        }
    }

    /// Why a reminder whose window has passed is still pending.
    public enum Waiting: Hashable, Sendable {
        /// A deposit in the window is still unconfirmed.
        case confirmation(txid: String)
        /// No rate exists at a deposit's date to value it in the plan's currency.
        case rate(txid: String, pair: CurrencyPair, date: Instant)
    }

    /// The outcome of each reminder, in the order given after sorting them by due date and
    /// plan name. `value` converts a deposit to a currency at its date (nil: no rate).
    public static func resolve(
        _ reminders: [Reminder], deposits: [Deposit], now: Instant, value: (Deposit, Currency) -> Int128?
    ) -> [(Reminder, Outcome)] {
        let ordered = reminders.sorted { ($0.due, $0.planName.lowercased(), $0.planID) < ($1.due, $1.planName.lowercased(), $1.planID) }
        let byAsset = Dictionary(grouping: deposits, by: \.assetID)
            .mapValues { $0.sorted { ($0.date, $0.txid) < ($1.date, $1.txid) } }
        var taken: Set<String> = []
        return ordered.map { reminder in
            let window = ReminderWindow(due: reminder.due)
            let candidates = (byAsset[reminder.assetID] ?? []).filter { window.contains($0.date) && !taken.contains($0.txid) }
            var claims: [Claim] = []
            var total: Int128 = 0
            var waiting: Waiting?
            for deposit in candidates {
                guard deposit.confirmed else {
                    waiting = waiting ?? .confirmation(txid: deposit.txid)
                    continue
                }
                guard let counted = value(deposit, reminder.currency) else {
                    waiting = waiting ?? .rate(txid: deposit.txid, pair: CurrencyPair(base: deposit.currency, quote: reminder.currency),
                                               date: deposit.date)
                    continue
                }
                claims.append(Claim(txid: deposit.txid, value: counted))
                total += counted
                if total >= reminder.amount { break }
            }
            if total >= reminder.amount {
                taken.formUnion(claims.map(\.txid))
                return (reminder, .fulfilled(claims))
            }
            if now < window.end { return (reminder, .pending(waitingFor: nil)) }
            if let waiting { return (reminder, .pending(waitingFor: waiting)) }
            return (reminder, .missed)
        }
    }
}
