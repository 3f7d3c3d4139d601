/// barkd's `Balance` (GET /api/v1/wallet/balance): the Ark wallet's sats by state.
///
/// On the wire `pending_exit_sat` is left out when unknown, as barkd's serde does.
public struct BarkdBalance: Sendable, Hashable, Codable {
    /// `spendable_sat` on the wire.
    public var spendableSat: Int64
    /// `pending_lightning_send_sat` on the wire.
    public var pendingLightningSendSat: Int64
    /// `claimable_lightning_receive_sat` on the wire.
    public var claimableLightningReceiveSat: Int64
    /// `pending_in_round_sat` on the wire.
    public var pendingInRoundSat: Int64
    /// `pending_board_sat` on the wire.
    public var pendingBoardSat: Int64
    /// nil when the exit subsystem is unavailable (omitted from the JSON).
    public var pendingExitSat: Int64?

    /// A balance; every figure defaults to 0.
    public init(
        spendableSat: Int64 = 0, pendingLightningSendSat: Int64 = 0, claimableLightningReceiveSat: Int64 = 0,
        pendingInRoundSat: Int64 = 0, pendingBoardSat: Int64 = 0, pendingExitSat: Int64? = 0
    ) {
        self.spendableSat = spendableSat
        self.pendingLightningSendSat = pendingLightningSendSat
        self.claimableLightningReceiveSat = claimableLightningReceiveSat
        self.pendingInRoundSat = pendingInRoundSat
        self.pendingBoardSat = pendingBoardSat
        self.pendingExitSat = pendingExitSat
    }

    private enum CodingKeys: String, CodingKey {
        case spendableSat = "spendable_sat", pendingLightningSendSat = "pending_lightning_send_sat"
        case claimableLightningReceiveSat = "claimable_lightning_receive_sat"
        case pendingInRoundSat = "pending_in_round_sat", pendingBoardSat = "pending_board_sat"
        case pendingExitSat = "pending_exit_sat"
    }

    /// Missing amounts read as 0, so a scenario can name only what matters to it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        spendableSat = try c.decodeIfPresent(Int64.self, forKey: .spendableSat) ?? 0
        pendingLightningSendSat = try c.decodeIfPresent(Int64.self, forKey: .pendingLightningSendSat) ?? 0
        claimableLightningReceiveSat = try c.decodeIfPresent(Int64.self, forKey: .claimableLightningReceiveSat) ?? 0
        pendingInRoundSat = try c.decodeIfPresent(Int64.self, forKey: .pendingInRoundSat) ?? 0
        pendingBoardSat = try c.decodeIfPresent(Int64.self, forKey: .pendingBoardSat) ?? 0
        pendingExitSat = c.contains(.pendingExitSat)
            ? try c.decodeIfPresent(Int64.self, forKey: .pendingExitSat) : 0
    }
}

/// barkd's `OnchainBalance` (GET /api/v1/onchain/balance), BDK's balance breakdown.
public struct BarkdOnchainBalance: Sendable, Hashable, Codable {
    /// `total_sat` on the wire.
    public var totalSat: Int64
    /// `trusted_spendable_sat` on the wire.
    public var trustedSpendableSat: Int64
    /// `immature_sat` on the wire.
    public var immatureSat: Int64
    /// `trusted_pending_sat` on the wire.
    public var trustedPendingSat: Int64
    /// `untrusted_pending_sat` on the wire.
    public var untrustedPendingSat: Int64
    /// `confirmed_sat` on the wire.
    public var confirmedSat: Int64

    /// A balance whose total and trusted-spendable figures follow from the parts, as BDK's do.
    public init(confirmedSat: Int64 = 0, trustedPendingSat: Int64 = 0, untrustedPendingSat: Int64 = 0, immatureSat: Int64 = 0) {
        self.confirmedSat = confirmedSat
        self.trustedPendingSat = trustedPendingSat
        self.untrustedPendingSat = untrustedPendingSat
        self.immatureSat = immatureSat
        self.totalSat = confirmedSat + trustedPendingSat + untrustedPendingSat + immatureSat
        self.trustedSpendableSat = confirmedSat + trustedPendingSat
    }

    /// Every figure as given, consistent or not (faults and odd daemons).
    public init(
        totalSat: Int64, trustedSpendableSat: Int64, immatureSat: Int64, trustedPendingSat: Int64,
        untrustedPendingSat: Int64, confirmedSat: Int64
    ) {
        self.totalSat = totalSat
        self.trustedSpendableSat = trustedSpendableSat
        self.immatureSat = immatureSat
        self.trustedPendingSat = trustedPendingSat
        self.untrustedPendingSat = untrustedPendingSat
        self.confirmedSat = confirmedSat
    }

    private enum CodingKeys: String, CodingKey {
        case totalSat = "total_sat", trustedSpendableSat = "trusted_spendable_sat", immatureSat = "immature_sat"
        case trustedPendingSat = "trusted_pending_sat", untrustedPendingSat = "untrusted_pending_sat"
        case confirmedSat = "confirmed_sat"
    }

    /// Missing parts read as 0; a missing total or trusted-spendable figure is computed.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            confirmedSat: try c.decodeIfPresent(Int64.self, forKey: .confirmedSat) ?? 0,
            trustedPendingSat: try c.decodeIfPresent(Int64.self, forKey: .trustedPendingSat) ?? 0,
            untrustedPendingSat: try c.decodeIfPresent(Int64.self, forKey: .untrustedPendingSat) ?? 0,
            immatureSat: try c.decodeIfPresent(Int64.self, forKey: .immatureSat) ?? 0)
        if let total = try c.decodeIfPresent(Int64.self, forKey: .totalSat) { totalSat = total }
        if let spendable = try c.decodeIfPresent(Int64.self, forKey: .trustedSpendableSat) { trustedSpendableSat = spendable }
    }
}
