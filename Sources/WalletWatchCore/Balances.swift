/// The Ark balance of a barkd wallet, broken down as barkd reports it (all in sats, each
/// within 21 million BTC: 64 bits hold them and their sums).
public struct ArkBalance: Hashable, Sendable {
    public var spendable: Int64
    public var pendingLightningSend: Int64
    public var claimableLightningReceive: Int64
    public var pendingInRound: Int64
    /// Nil when barkd's exit subsystem is unavailable.
    public var pendingExit: Int64?
    public var pendingBoard: Int64

    public init(spendable: Int64, pendingLightningSend: Int64, claimableLightningReceive: Int64,
                pendingInRound: Int64, pendingExit: Int64?, pendingBoard: Int64) {
        self.spendable = spendable
        self.pendingLightningSend = pendingLightningSend
        self.claimableLightningReceive = claimableLightningReceive
        self.pendingInRound = pendingInRound
        self.pendingExit = pendingExit
        self.pendingBoard = pendingBoard
    }

    /// What counts as the user's (SPEC.md section 6): funds being refreshed in a round or exiting
    /// on-chain are still theirs; leaving them out would show a false withdrawal at every refresh.
    public var counted: Int64 { spendable + pendingInRound + (pendingExit ?? 0) }
    /// Shown but not counted: boards awaiting confirmations and claimable Lightning receives.
    public var pending: Int64 { pendingBoard + claimableLightningReceive }
    /// Locked in outgoing Lightning payments.
    public var sending: Int64 { pendingLightningSend }
}

/// An on-chain wallet balance, as barkd reports it; Esplora sources fill it from address stats.
public struct OnchainBalance: Hashable, Sendable {
    public var total: Int64
    public var trustedSpendable: Int64
    public var immature: Int64
    public var trustedPending: Int64
    /// For Esplora sources this is the mempool delta, which can be negative.
    public var untrustedPending: Int64
    public var confirmed: Int64

    public init(total: Int64, trustedSpendable: Int64, immature: Int64, trustedPending: Int64,
                untrustedPending: Int64, confirmed: Int64) {
        self.total = total
        self.trustedSpendable = trustedSpendable
        self.immature = immature
        self.trustedPending = trustedPending
        self.untrustedPending = untrustedPending
        self.confirmed = confirmed
    }

    /// What counts: confirmed coins only.
    public var counted: Int64 { confirmed }
    /// Shown but not counted.
    public var pending: Int64 { trustedPending + untrustedPending + immature }
}

/// An asset's balance as every view shows it: the counted part (which allocations, funding and
/// contributions use), what is pending, and how old the figure is.
public struct AssetBalance: Hashable, Sendable {
    /// The balance allocations and contributions are measured against.
    public var counted: Int128
    /// Incoming but not yet counted (boards, Lightning receives, mempool).
    public var pending: Int128
    /// Locked in outgoing payments (Ark only).
    public var sending: Int128
    /// When the source last reported it; nil for manual assets and sources never ingested.
    public var lastUpdated: Instant?

    public init(counted: Int128, pending: Int128 = 0, sending: Int128 = 0, lastUpdated: Instant? = nil) {
        self.counted = counted
        self.pending = pending
        self.sending = sending
        self.lastUpdated = lastUpdated
    }
}
