/// barkd's `ArkInfo` (GET /api/v1/wallet/ark-info): the Ark server's parameters. Every field
/// the OpenAPI document requires is always present; `tos_link` is `null` when there is none.
/// The defaults describe a plausible mainnet server.
public struct BarkdArkInfo: Sendable, Hashable, Codable {
    /// `network` on the wire.
    public var network: String = "bitcoin"
    /// `server_pubkey` on the wire.
    public var serverPubkey: String = BarkdArkInfo.defaultServerPubkey
    /// `mailbox_pubkey` on the wire.
    public var mailboxPubkey: String = BarkdArkInfo.defaultMailboxPubkey
    /// A humantime duration such as `30s` or `1h`.
    public var roundInterval: String = "30s"
    /// `nb_round_nonces` on the wire.
    public var nbRoundNonces: Int = 8
    /// `vtxo_exit_delta` on the wire.
    public var vtxoExitDelta: Int = 144
    /// Served as both `vtxo_lifetime` and the deprecated `vtxo_expiry_delta`, as barkd does.
    public var vtxoLifetime: Int = 4320
    /// `htlc_send_expiry_delta` on the wire.
    public var htlcSendExpiryDelta: Int = 36
    /// `htlc_expiry_delta` on the wire.
    public var htlcExpiryDelta: Int = 6
    /// `max_vtxo_amount` on the wire.
    public var maxVtxoAmount: Int64 = 10_000_000
    /// `required_board_confirmations` on the wire.
    public var requiredBoardConfirmations: Int = 2
    /// `max_user_invoice_cltv_delta` on the wire.
    public var maxUserInvoiceCltvDelta: Int = 58
    /// `min_board_amount_sat` on the wire.
    public var minBoardAmountSat: Int64 = 20_000
    /// `offboard_feerate_sat_per_kvb` on the wire.
    public var offboardFeerateSatPerKvb: Int64 = 10_000
    /// `ln_receive_anti_dos_required` on the wire.
    public var lnReceiveAntiDosRequired: Bool = false
    /// `fees` on the wire.
    public var fees: BarkdFeeSchedule = BarkdFeeSchedule()
    /// `max_vtxo_exit_depth` on the wire.
    public var maxVtxoExitDepth: Int = 12
    /// `tos_link` on the wire.
    public var tosLink: String?
    /// `max_offboard_inputs` on the wire.
    public var maxOffboardInputs: Int = 25

    /// The server key every default VTXO and ArkInfo names.
    public static let defaultServerPubkey = "02" + Fingerprint.hash256("ark-server")

    /// The mailbox key of the default ArkInfo.
    public static let defaultMailboxPubkey = "03" + Fingerprint.hash256("ark-mailbox")

    /// A plausible mainnet server's parameters; change any of them as needed.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case network, serverPubkey = "server_pubkey", mailboxPubkey = "mailbox_pubkey", roundInterval = "round_interval"
        case nbRoundNonces = "nb_round_nonces", vtxoExitDelta = "vtxo_exit_delta", vtxoLifetime = "vtxo_lifetime"
        case htlcSendExpiryDelta = "htlc_send_expiry_delta", htlcExpiryDelta = "htlc_expiry_delta"
        case maxVtxoAmount = "max_vtxo_amount", requiredBoardConfirmations = "required_board_confirmations"
        case maxUserInvoiceCltvDelta = "max_user_invoice_cltv_delta", minBoardAmountSat = "min_board_amount_sat"
        case offboardFeerateSatPerKvb = "offboard_feerate_sat_per_kvb"
        case lnReceiveAntiDosRequired = "ln_receive_anti_dos_required", fees, maxVtxoExitDepth = "max_vtxo_exit_depth"
        case tosLink = "tos_link", maxOffboardInputs = "max_offboard_inputs", vtxoExpiryDelta = "vtxo_expiry_delta"
    }

    /// Any field left out keeps its default, so a scenario can override one parameter.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func read<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            value = try c.decodeIfPresent(T.self, forKey: key) ?? value
        }
        try read(.network, &network)
        try read(.serverPubkey, &serverPubkey)
        try read(.mailboxPubkey, &mailboxPubkey)
        try read(.roundInterval, &roundInterval)
        try read(.nbRoundNonces, &nbRoundNonces)
        try read(.vtxoExitDelta, &vtxoExitDelta)
        try read(.vtxoExpiryDelta, &vtxoLifetime)
        try read(.vtxoLifetime, &vtxoLifetime)
        try read(.htlcSendExpiryDelta, &htlcSendExpiryDelta)
        try read(.htlcExpiryDelta, &htlcExpiryDelta)
        try read(.maxVtxoAmount, &maxVtxoAmount)
        try read(.requiredBoardConfirmations, &requiredBoardConfirmations)
        try read(.maxUserInvoiceCltvDelta, &maxUserInvoiceCltvDelta)
        try read(.minBoardAmountSat, &minBoardAmountSat)
        try read(.offboardFeerateSatPerKvb, &offboardFeerateSatPerKvb)
        try read(.lnReceiveAntiDosRequired, &lnReceiveAntiDosRequired)
        try read(.fees, &fees)
        try read(.maxVtxoExitDepth, &maxVtxoExitDepth)
        try read(.tosLink, &tosLink)
        try read(.maxOffboardInputs, &maxOffboardInputs)
    }

    /// barkd's order; `tos_link` is `null` when absent, and the lifetime is served a second
    /// time under its deprecated name, last.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(network, forKey: .network)
        try c.encode(serverPubkey, forKey: .serverPubkey)
        try c.encode(mailboxPubkey, forKey: .mailboxPubkey)
        try c.encode(roundInterval, forKey: .roundInterval)
        try c.encode(nbRoundNonces, forKey: .nbRoundNonces)
        try c.encode(vtxoExitDelta, forKey: .vtxoExitDelta)
        try c.encode(vtxoLifetime, forKey: .vtxoLifetime)
        try c.encode(htlcSendExpiryDelta, forKey: .htlcSendExpiryDelta)
        try c.encode(htlcExpiryDelta, forKey: .htlcExpiryDelta)
        try c.encode(maxVtxoAmount, forKey: .maxVtxoAmount)
        try c.encode(requiredBoardConfirmations, forKey: .requiredBoardConfirmations)
        try c.encode(maxUserInvoiceCltvDelta, forKey: .maxUserInvoiceCltvDelta)
        try c.encode(minBoardAmountSat, forKey: .minBoardAmountSat)
        try c.encode(offboardFeerateSatPerKvb, forKey: .offboardFeerateSatPerKvb)
        try c.encode(lnReceiveAntiDosRequired, forKey: .lnReceiveAntiDosRequired)
        try c.encode(fees, forKey: .fees)
        try c.encode(maxVtxoExitDepth, forKey: .maxVtxoExitDepth)
        try c.encode(tosLink, forKey: .tosLink)
        try c.encode(maxOffboardInputs, forKey: .maxOffboardInputs)
        try c.encode(vtxoLifetime, forKey: .vtxoExpiryDelta)
    }
}

/// barkd's `FeeSchedule`: board, offboard, refresh and Lightning fees, each part a nested
/// object on the wire (`{"board": {"min_fee_sat": 0, ...}, ...}`).
public struct BarkdFeeSchedule: Sendable, Hashable, Codable {
    /// A `PpmExpiryFeeEntry`: the ppm rate for VTXOs expiring within a number of blocks.
    public struct ExpiryEntry: Sendable, Hashable, Codable {
        /// `expiry_blocks_threshold` on the wire.
        public var expiryBlocksThreshold: Int
        /// `ppm` on the wire.
        public var ppm: Int64

        /// An entry of an expiry fee table.
        public init(expiryBlocksThreshold: Int, ppm: Int64) {
            self.expiryBlocksThreshold = expiryBlocksThreshold
            self.ppm = ppm
        }

        private enum CodingKeys: String, CodingKey {
            case expiryBlocksThreshold = "expiry_blocks_threshold", ppm
        }
    }

    /// `board.min_fee_sat` on the wire.
    public var boardMinFeeSat: Int64 = 0
    /// `board.base_fee_sat` on the wire.
    public var boardBaseFeeSat: Int64 = 0
    /// `board.ppm` on the wire.
    public var boardPpm: Int64 = 0
    /// `offboard.base_fee_sat` on the wire.
    public var offboardBaseFeeSat: Int64 = 500
    /// `offboard.fixed_additional_vb` on the wire.
    public var offboardFixedAdditionalVb: Int64 = 100
    /// `offboard.ppm_expiry_table` on the wire.
    public var offboardExpiryTable: [ExpiryEntry] = [ExpiryEntry(expiryBlocksThreshold: 144, ppm: 1000)]
    /// `refresh.base_fee_sat` on the wire.
    public var refreshBaseFeeSat: Int64 = 0
    /// `refresh.ppm_expiry_table` on the wire.
    public var refreshExpiryTable: [ExpiryEntry] = [
        ExpiryEntry(expiryBlocksThreshold: 144, ppm: 0), ExpiryEntry(expiryBlocksThreshold: 1008, ppm: 500),
    ]
    /// `lightning_receive.base_fee_sat` on the wire.
    public var lightningReceiveBaseFeeSat: Int64 = 0
    /// `lightning_receive.ppm` on the wire.
    public var lightningReceivePpm: Int64 = 0
    /// `lightning_send.min_fee_sat` on the wire.
    public var lightningSendMinFeeSat: Int64 = 1
    /// `lightning_send.base_fee_sat` on the wire.
    public var lightningSendBaseFeeSat: Int64 = 0
    /// `lightning_send.ppm_expiry_table` on the wire.
    public var lightningSendExpiryTable: [ExpiryEntry] = [ExpiryEntry(expiryBlocksThreshold: 0, ppm: 2500)]

    /// Modest mainnet-like fees; change any of them as needed.
    public init() {}

    private enum Part: String, CodingKey {
        case board, offboard, refresh, lightningReceive = "lightning_receive", lightningSend = "lightning_send"
    }

    private enum Field: String, CodingKey {
        case minFeeSat = "min_fee_sat", baseFeeSat = "base_fee_sat", ppm, fixedAdditionalVb = "fixed_additional_vb"
        case ppmExpiryTable = "ppm_expiry_table"
    }

    /// Reads barkd's nested form; absent parts and fields keep their defaults.
    public init(from decoder: any Decoder) throws {
        let parts = try decoder.container(keyedBy: Part.self)
        self.init()
        func read<T: Decodable>(_ part: Part, _ field: Field, into value: inout T) throws {
            guard parts.contains(part) else { return }
            let fields = try parts.nestedContainer(keyedBy: Field.self, forKey: part)
            value = try fields.decodeIfPresent(T.self, forKey: field) ?? value
        }
        try read(.board, .minFeeSat, into: &boardMinFeeSat)
        try read(.board, .baseFeeSat, into: &boardBaseFeeSat)
        try read(.board, .ppm, into: &boardPpm)
        try read(.offboard, .baseFeeSat, into: &offboardBaseFeeSat)
        try read(.offboard, .fixedAdditionalVb, into: &offboardFixedAdditionalVb)
        try read(.offboard, .ppmExpiryTable, into: &offboardExpiryTable)
        try read(.refresh, .baseFeeSat, into: &refreshBaseFeeSat)
        try read(.refresh, .ppmExpiryTable, into: &refreshExpiryTable)
        try read(.lightningReceive, .baseFeeSat, into: &lightningReceiveBaseFeeSat)
        try read(.lightningReceive, .ppm, into: &lightningReceivePpm)
        try read(.lightningSend, .minFeeSat, into: &lightningSendMinFeeSat)
        try read(.lightningSend, .baseFeeSat, into: &lightningSendBaseFeeSat)
        try read(.lightningSend, .ppmExpiryTable, into: &lightningSendExpiryTable)
    }

    public func encode(to encoder: any Encoder) throws {
        var parts = encoder.container(keyedBy: Part.self)
        var board = parts.nestedContainer(keyedBy: Field.self, forKey: .board)
        try board.encode(boardMinFeeSat, forKey: .minFeeSat)
        try board.encode(boardBaseFeeSat, forKey: .baseFeeSat)
        try board.encode(boardPpm, forKey: .ppm)
        var offboard = parts.nestedContainer(keyedBy: Field.self, forKey: .offboard)
        try offboard.encode(offboardBaseFeeSat, forKey: .baseFeeSat)
        try offboard.encode(offboardFixedAdditionalVb, forKey: .fixedAdditionalVb)
        try offboard.encode(offboardExpiryTable, forKey: .ppmExpiryTable)
        var refresh = parts.nestedContainer(keyedBy: Field.self, forKey: .refresh)
        try refresh.encode(refreshBaseFeeSat, forKey: .baseFeeSat)
        try refresh.encode(refreshExpiryTable, forKey: .ppmExpiryTable)
        var receive = parts.nestedContainer(keyedBy: Field.self, forKey: .lightningReceive)
        try receive.encode(lightningReceiveBaseFeeSat, forKey: .baseFeeSat)
        try receive.encode(lightningReceivePpm, forKey: .ppm)
        var send = parts.nestedContainer(keyedBy: Field.self, forKey: .lightningSend)
        try send.encode(lightningSendMinFeeSat, forKey: .minFeeSat)
        try send.encode(lightningSendBaseFeeSat, forKey: .baseFeeSat)
        try send.encode(lightningSendExpiryTable, forKey: .ppmExpiryTable)
    }
}
