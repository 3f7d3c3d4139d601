/// The limit of every bitcoin amount: no more than 21 million BTC can ever exist.
public enum BitcoinSupply {
    /// 21,000,000 BTC in satoshis. An amount or balance beyond it, reported by a source, is
    /// absurd; refusing it also keeps every sum walletwatch computes far from `Int64` overflow
    /// (4,000 such amounts still fit).
    public static let maximumSats: Int64 = 2_100_000_000_000_000
}
