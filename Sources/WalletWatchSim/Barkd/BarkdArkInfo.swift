/// barkd's `ArkInfo` (GET /api/v1/wallet/ark-info): the Ark server's parameters. Every field
/// the OpenAPI document requires is always present; `tos_link` is `null` when there is none.
/// The defaults describe a plausible mainnet server.
public struct BarkdArkInfo: Sendable, Hashable, Codable {
    /// `network` on the wire.
    public var network: String
    /// `server_pubkey` on the wire.
    public var serverPubkey: String
    /// `mailbox_pubkey` on the wire.
    public var mailboxPubkey: String
    /// A humantime duration such as `30s` or `1h`.
    public var roundInterval: String
    /// `nb_round_nonces` on the wire.
    public var nbRoundNonces: Int
    /// `vtxo_exit_delta` on the wire.
    public var vtxoExitDelta: Int
    /// Served as both `vtxo_lifetime` and the deprecated `vtxo_expiry_delta`, as barkd does.
    public var vtxoLifetime: Int
    /// `htlc_send_expiry_delta` on the wire.
    public var htlcSendExpiryDelta: Int
    /// `htlc_expiry_delta` on the wire.
    public var htlcExpiryDelta: Int
    /// `max_vtxo_amount` on the wire.
    public var maxVtxoAmount: Int64
    /// `required_board_confirmations` on the wire.
    public var requiredBoardConfirmations: Int
    /// `max_user_invoice_cltv_delta` on the wire.
    public var maxUserInvoiceCltvDelta: Int
    /// `min_board_amount_sat` on the wire.
    public var minBoardAmountSat: Int64
    /// `offboard_feerate_sat_per_kvb` on the wire.
    public var offboardFeerateSatPerKvb: Int64
    /// `ln_receive_anti_dos_required` on the wire.
    public var lnReceiveAntiDosRequired: Bool
    /// `fees` on the wire.
    public var fees: BarkdFeeSchedule
    /// `max_vtxo_exit_depth` on the wire.
    public var maxVtxoExitDepth: Int
    /// `tos_link` on the wire.
    public var tosLink: String?
    /// `max_offboard_inputs` on the wire.
    public var maxOffboardInputs: Int

    /// The server key every default VTXO and ArkInfo names.
    public static let defaultServerPubkey = "02" + Fingerprint.hash256("ark-server")

    /// The mailbox key of the default ArkInfo.
    public static let defaultMailboxPubkey = "03" + Fingerprint.hash256("ark-mailbox")

    /// Ark server parameters; every one defaults to a plausible mainnet value.
    public init(
        network: String = "bitcoin", serverPubkey: String = BarkdArkInfo.defaultServerPubkey,
        mailboxPubkey: String = BarkdArkInfo.defaultMailboxPubkey, roundInterval: String = "30s",
        nbRoundNonces: Int = 8, vtxoExitDelta: Int = 144, vtxoLifetime: Int = 4320, htlcSendExpiryDelta: Int = 36,
        htlcExpiryDelta: Int = 6, maxVtxoAmount: Int64 = 10_000_000, requiredBoardConfirmations: Int = 2,
        maxUserInvoiceCltvDelta: Int = 58, minBoardAmountSat: Int64 = 20_000, offboardFeerateSatPerKvb: Int64 = 10_000,
        lnReceiveAntiDosRequired: Bool = false, fees: BarkdFeeSchedule = BarkdFeeSchedule(), maxVtxoExitDepth: Int = 12,
        tosLink: String? = nil, maxOffboardInputs: Int = 25
    ) {
        self.network = network
        self.serverPubkey = serverPubkey
        self.mailboxPubkey = mailboxPubkey
        self.roundInterval = roundInterval
        self.nbRoundNonces = nbRoundNonces
        self.vtxoExitDelta = vtxoExitDelta
        self.vtxoLifetime = vtxoLifetime
        self.htlcSendExpiryDelta = htlcSendExpiryDelta
        self.htlcExpiryDelta = htlcExpiryDelta
        self.maxVtxoAmount = maxVtxoAmount
        self.requiredBoardConfirmations = requiredBoardConfirmations
        self.maxUserInvoiceCltvDelta = maxUserInvoiceCltvDelta
        self.minBoardAmountSat = minBoardAmountSat
        self.offboardFeerateSatPerKvb = offboardFeerateSatPerKvb
        self.lnReceiveAntiDosRequired = lnReceiveAntiDosRequired
        self.fees = fees
        self.maxVtxoExitDepth = maxVtxoExitDepth
        self.tosLink = tosLink
        self.maxOffboardInputs = maxOffboardInputs
    }

    private enum CodingKeys: String, CodingKey {
        case network, fees
        case serverPubkey = "server_pubkey", mailboxPubkey = "mailbox_pubkey", roundInterval = "round_interval"
        case nbRoundNonces = "nb_round_nonces", vtxoExitDelta = "vtxo_exit_delta", vtxoLifetime = "vtxo_lifetime"
        case vtxoExpiryDelta = "vtxo_expiry_delta", htlcSendExpiryDelta = "htlc_send_expiry_delta"
        case htlcExpiryDelta = "htlc_expiry_delta", maxVtxoAmount = "max_vtxo_amount"
        case requiredBoardConfirmations = "required_board_confirmations"
        case maxUserInvoiceCltvDelta = "max_user_invoice_cltv_delta", minBoardAmountSat = "min_board_amount_sat"
        case offboardFeerateSatPerKvb = "offboard_feerate_sat_per_kvb"
        case lnReceiveAntiDosRequired = "ln_receive_anti_dos_required", maxVtxoExitDepth = "max_vtxo_exit_depth"
        case tosLink = "tos_link", maxOffboardInputs = "max_offboard_inputs"
    }

    /// Any field left out keeps its default, so a scenario can override one parameter.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = BarkdArkInfo()
        network = try c.decodeIfPresent(String.self, forKey: .network) ?? d.network
        serverPubkey = try c.decodeIfPresent(String.self, forKey: .serverPubkey) ?? d.serverPubkey
        mailboxPubkey = try c.decodeIfPresent(String.self, forKey: .mailboxPubkey) ?? d.mailboxPubkey
        roundInterval = try c.decodeIfPresent(String.self, forKey: .roundInterval) ?? d.roundInterval
        nbRoundNonces = try c.decodeIfPresent(Int.self, forKey: .nbRoundNonces) ?? d.nbRoundNonces
        vtxoExitDelta = try c.decodeIfPresent(Int.self, forKey: .vtxoExitDelta) ?? d.vtxoExitDelta
        vtxoLifetime = try c.decodeIfPresent(Int.self, forKey: .vtxoLifetime)
            ?? c.decodeIfPresent(Int.self, forKey: .vtxoExpiryDelta) ?? d.vtxoLifetime
        htlcSendExpiryDelta = try c.decodeIfPresent(Int.self, forKey: .htlcSendExpiryDelta) ?? d.htlcSendExpiryDelta
        htlcExpiryDelta = try c.decodeIfPresent(Int.self, forKey: .htlcExpiryDelta) ?? d.htlcExpiryDelta
        maxVtxoAmount = try c.decodeIfPresent(Int64.self, forKey: .maxVtxoAmount) ?? d.maxVtxoAmount
        requiredBoardConfirmations = try c.decodeIfPresent(Int.self, forKey: .requiredBoardConfirmations)
            ?? d.requiredBoardConfirmations
        maxUserInvoiceCltvDelta = try c.decodeIfPresent(Int.self, forKey: .maxUserInvoiceCltvDelta) ?? d.maxUserInvoiceCltvDelta
        minBoardAmountSat = try c.decodeIfPresent(Int64.self, forKey: .minBoardAmountSat) ?? d.minBoardAmountSat
        offboardFeerateSatPerKvb = try c.decodeIfPresent(Int64.self, forKey: .offboardFeerateSatPerKvb)
            ?? d.offboardFeerateSatPerKvb
        lnReceiveAntiDosRequired = try c.decodeIfPresent(Bool.self, forKey: .lnReceiveAntiDosRequired)
            ?? d.lnReceiveAntiDosRequired
        fees = try c.decodeIfPresent(BarkdFeeSchedule.self, forKey: .fees) ?? d.fees
        maxVtxoExitDepth = try c.decodeIfPresent(Int.self, forKey: .maxVtxoExitDepth) ?? d.maxVtxoExitDepth
        tosLink = try c.decodeIfPresent(String.self, forKey: .tosLink)
        maxOffboardInputs = try c.decodeIfPresent(Int.self, forKey: .maxOffboardInputs) ?? d.maxOffboardInputs
    }

    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension BarkdArkInfo: JSONWritable {
    func writeJSON(to out: inout JSONBuffer) {
        out.beginObject()
        out.field("network", network)
        out.field("server_pubkey", serverPubkey)
        out.field("mailbox_pubkey", mailboxPubkey)
        out.field("round_interval", roundInterval)
        out.field("nb_round_nonces", nbRoundNonces)
        out.field("vtxo_exit_delta", vtxoExitDelta)
        out.field("vtxo_lifetime", vtxoLifetime)
        out.field("htlc_send_expiry_delta", htlcSendExpiryDelta)
        out.field("htlc_expiry_delta", htlcExpiryDelta)
        out.field("max_vtxo_amount", maxVtxoAmount)
        out.field("required_board_confirmations", requiredBoardConfirmations)
        out.field("max_user_invoice_cltv_delta", maxUserInvoiceCltvDelta)
        out.field("min_board_amount_sat", minBoardAmountSat)
        out.field("offboard_feerate_sat_per_kvb", offboardFeerateSatPerKvb)
        out.field("ln_receive_anti_dos_required", lnReceiveAntiDosRequired)
        out.field("fees", fees)
        out.field("max_vtxo_exit_depth", maxVtxoExitDepth)
        out.field("tos_link", nullable: tosLink)
        out.field("max_offboard_inputs", maxOffboardInputs)
        out.field("vtxo_expiry_delta", vtxoLifetime)
        out.endObject()
    }
}

/// barkd's `FeeSchedule`, with its board, offboard, refresh and Lightning parts.
public struct BarkdFeeSchedule: Sendable, Hashable, Codable, JSONWritable {
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
    public var boardMinFeeSat: Int64
    /// `board.base_fee_sat` on the wire.
    public var boardBaseFeeSat: Int64
    /// `board.ppm` on the wire.
    public var boardPpm: Int64
    /// `offboard.base_fee_sat` on the wire.
    public var offboardBaseFeeSat: Int64
    /// `offboard.fixed_additional_vb` on the wire.
    public var offboardFixedAdditionalVb: Int64
    /// `offboard.ppm_expiry_table` on the wire.
    public var offboardExpiryTable: [ExpiryEntry]
    /// `refresh.base_fee_sat` on the wire.
    public var refreshBaseFeeSat: Int64
    /// `refresh.ppm_expiry_table` on the wire.
    public var refreshExpiryTable: [ExpiryEntry]
    /// `lightning_receive.base_fee_sat` on the wire.
    public var lightningReceiveBaseFeeSat: Int64
    /// `lightning_receive.ppm` on the wire.
    public var lightningReceivePpm: Int64
    /// `lightning_send.min_fee_sat` on the wire.
    public var lightningSendMinFeeSat: Int64
    /// `lightning_send.base_fee_sat` on the wire.
    public var lightningSendBaseFeeSat: Int64
    /// `lightning_send.ppm_expiry_table` on the wire.
    public var lightningSendExpiryTable: [ExpiryEntry]

    /// A fee schedule; the defaults are modest mainnet-like fees.
    public init(
        boardMinFeeSat: Int64 = 0, boardBaseFeeSat: Int64 = 0, boardPpm: Int64 = 0,
        offboardBaseFeeSat: Int64 = 500, offboardFixedAdditionalVb: Int64 = 100,
        offboardExpiryTable: [ExpiryEntry] = [.init(expiryBlocksThreshold: 144, ppm: 1000)],
        refreshBaseFeeSat: Int64 = 0,
        refreshExpiryTable: [ExpiryEntry] = [.init(expiryBlocksThreshold: 144, ppm: 0), .init(expiryBlocksThreshold: 1008, ppm: 500)],
        lightningReceiveBaseFeeSat: Int64 = 0, lightningReceivePpm: Int64 = 0,
        lightningSendMinFeeSat: Int64 = 1, lightningSendBaseFeeSat: Int64 = 0,
        lightningSendExpiryTable: [ExpiryEntry] = [.init(expiryBlocksThreshold: 0, ppm: 2500)]
    ) {
        self.boardMinFeeSat = boardMinFeeSat
        self.boardBaseFeeSat = boardBaseFeeSat
        self.boardPpm = boardPpm
        self.offboardBaseFeeSat = offboardBaseFeeSat
        self.offboardFixedAdditionalVb = offboardFixedAdditionalVb
        self.offboardExpiryTable = offboardExpiryTable
        self.refreshBaseFeeSat = refreshBaseFeeSat
        self.refreshExpiryTable = refreshExpiryTable
        self.lightningReceiveBaseFeeSat = lightningReceiveBaseFeeSat
        self.lightningReceivePpm = lightningReceivePpm
        self.lightningSendMinFeeSat = lightningSendMinFeeSat
        self.lightningSendBaseFeeSat = lightningSendBaseFeeSat
        self.lightningSendExpiryTable = lightningSendExpiryTable
    }

    /// Reads barkd's nested form (`{"board": {...}, "offboard": {...}, ...}`); absent parts keep defaults.
    public init(from decoder: any Decoder) throws {
        let value = try SimJSON(from: decoder)
        let d = BarkdFeeSchedule()
        func int(_ part: String, _ key: String, _ fallback: Int64) -> Int64 {
            if case .number(let text) = value[part]?[key] ?? .null, let number = Int64(text) { return number }
            return fallback
        }
        func table(_ part: String, _ fallback: [ExpiryEntry]) -> [ExpiryEntry] {
            guard case .array(let rows) = value[part]?["ppm_expiry_table"] ?? .null else { return fallback }
            return rows.compactMap { row in
                guard case .number(let threshold) = row["expiry_blocks_threshold"] ?? .null,
                      case .number(let ppm) = row["ppm"] ?? .null,
                      let t = Int(threshold), let p = Int64(ppm) else { return nil }
                return ExpiryEntry(expiryBlocksThreshold: t, ppm: p)
            }
        }
        self.init(
            boardMinFeeSat: int("board", "min_fee_sat", d.boardMinFeeSat),
            boardBaseFeeSat: int("board", "base_fee_sat", d.boardBaseFeeSat),
            boardPpm: int("board", "ppm", d.boardPpm),
            offboardBaseFeeSat: int("offboard", "base_fee_sat", d.offboardBaseFeeSat),
            offboardFixedAdditionalVb: int("offboard", "fixed_additional_vb", d.offboardFixedAdditionalVb),
            offboardExpiryTable: table("offboard", d.offboardExpiryTable),
            refreshBaseFeeSat: int("refresh", "base_fee_sat", d.refreshBaseFeeSat),
            refreshExpiryTable: table("refresh", d.refreshExpiryTable),
            lightningReceiveBaseFeeSat: int("lightning_receive", "base_fee_sat", d.lightningReceiveBaseFeeSat),
            lightningReceivePpm: int("lightning_receive", "ppm", d.lightningReceivePpm),
            lightningSendMinFeeSat: int("lightning_send", "min_fee_sat", d.lightningSendMinFeeSat),
            lightningSendBaseFeeSat: int("lightning_send", "base_fee_sat", d.lightningSendBaseFeeSat),
            lightningSendExpiryTable: table("lightning_send", d.lightningSendExpiryTable))
    }

    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }

    func writeJSON(to out: inout JSONBuffer) {
        func writeTable(_ name: String, _ rows: [ExpiryEntry], _ out: inout JSONBuffer) {
            out.key(name)
            out.beginArray()
            for row in rows {
                out.beginObject()
                out.field("expiry_blocks_threshold", row.expiryBlocksThreshold)
                out.field("ppm", row.ppm)
                out.endObject()
            }
            out.endArray()
        }
        out.beginObject()
        out.key("board")
        out.beginObject()
        out.field("min_fee_sat", boardMinFeeSat)
        out.field("base_fee_sat", boardBaseFeeSat)
        out.field("ppm", boardPpm)
        out.endObject()
        out.key("offboard")
        out.beginObject()
        out.field("base_fee_sat", offboardBaseFeeSat)
        out.field("fixed_additional_vb", offboardFixedAdditionalVb)
        writeTable("ppm_expiry_table", offboardExpiryTable, &out)
        out.endObject()
        out.key("refresh")
        out.beginObject()
        out.field("base_fee_sat", refreshBaseFeeSat)
        writeTable("ppm_expiry_table", refreshExpiryTable, &out)
        out.endObject()
        out.key("lightning_receive")
        out.beginObject()
        out.field("base_fee_sat", lightningReceiveBaseFeeSat)
        out.field("ppm", lightningReceivePpm)
        out.endObject()
        out.key("lightning_send")
        out.beginObject()
        out.field("min_fee_sat", lightningSendMinFeeSat)
        out.field("base_fee_sat", lightningSendBaseFeeSat)
        writeTable("ppm_expiry_table", lightningSendExpiryTable, &out)
        out.endObject()
        out.endObject()
    }
}
