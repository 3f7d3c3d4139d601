/// What feeds an asset's balance.
public enum AssetKind: String, Sendable, CaseIterable, Codable {
    /// The Ark balance of a barkd wallet.
    case ark
    /// The on-chain wallet of a barkd daemon.
    case onchain
    /// A set of addresses watched through an Esplora explorer.
    case addresses
    /// Entered by hand with `tx add` (cash, a bank account).
    case manual
    /// The native coin or one token of an EVM source (SPEC.md section 26): one asset per
    /// source and currency, every watched address summed.
    case evm
}

/// Something with a balance in one currency.
public struct Asset: Hashable, Sendable {
    /// The database id; nil before the asset is stored.
    public var id: Int64?
    /// A unique name (compared case-insensitively).
    public var name: String
    /// The currency of every amount of this asset. Locked once the asset has a transaction.
    public var currency: Currency
    /// What feeds the balance. Locked once the asset has a transaction.
    public var kind: AssetKind
    /// The configured source that feeds it; nil for manual assets.
    public var source: String?
    /// When the asset was created.
    public var createdAt: Instant

    public init(id: Int64? = nil, name: String, currency: Currency, kind: AssetKind, source: String?, createdAt: Instant) {
        self.id = id
        self.name = name
        self.currency = currency
        self.kind = kind
        self.source = source
        self.createdAt = createdAt
    }
}
