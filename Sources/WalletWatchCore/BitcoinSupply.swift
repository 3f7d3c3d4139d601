/// The limit of every bitcoin amount: no more than 21 million BTC can ever exist.
public enum BitcoinSupply {
    /// 21,000,000 BTC in satoshis. An amount or balance beyond it, reported by a source, is
    /// absurd; refusing it also keeps every sum walletwatch computes far from `Int64` overflow
    /// (4,000 such amounts still fit).
    public static let maximumSats: Int64 = 2_100_000_000_000_000

    /// Whether `amount` is within 21 million BTC either way (a balance change may be negative).
    public static func contains(_ amount: Int64) -> Bool {
        amount.magnitude <= maximumSats.magnitude
    }

    /// `amount + other`, or nil when the sum leaves 21 million BTC either way. Never traps,
    /// whatever a server sent: the one way sat amounts from a source are added.
    public static func add(_ amount: Int64, _ other: Int64) -> Int64? {
        let (sum, overflow) = amount.addingReportingOverflow(other)
        return overflow || !contains(sum) ? nil : sum
    }

    /// `amounts` added up, or nil as soon as a partial sum leaves 21 million BTC either way
    /// (no real transaction's or wallet's does). Never traps.
    public static func sum<S: Sequence<Int64>>(_ amounts: S) -> Int64? {
        var total: Int64 = 0
        for amount in amounts {
            guard let next = add(total, amount) else { return nil }
            total = next
        }
        return total
    }
}
