import WalletWatchCore

/// Strict decoders for the barkd schemas walletwatch reads (REST API 0.4 to 0.6 and master, whose
/// OpenAPI documents the tests replay). A field is required only when every supported version
/// sends it (SPEC.md section 14): then it must be present with the documented type; amounts
/// documented with `minimum: 0` must not be negative; a field some version leaves out, renames
/// or deprecates may be absent or null; unknown fields are ignored (newer versions add some).
enum BarkdDecoding {
    static func balance(_ reader: inout JSONReader) throws -> ArkBalance {
        var spendable, lightningSend, lightningReceive, inRound, board: Int64?
        var exit: Int64??
        try reader.readObject { reader, key in
            if key.is("spendable_sat") { spendable = try reader.readSats() }
            else if key.is("pending_lightning_send_sat") { lightningSend = try reader.readSats() }
            else if key.is("claimable_lightning_receive_sat") { lightningReceive = try reader.readSats() }
            else if key.is("pending_in_round_sat") { inRound = try reader.readSats() }
            else if key.is("pending_board_sat") { board = try reader.readSats() }
            else if key.is("pending_exit_sat") { exit = .some(try reader.readOptionalSats()) }
            else { try reader.skipValue() }
        }
        guard let spendable else { throw reader.missing("spendable_sat") }
        guard let lightningSend else { throw reader.missing("pending_lightning_send_sat") }
        guard let lightningReceive else { throw reader.missing("claimable_lightning_receive_sat") }
        guard let inRound else { throw reader.missing("pending_in_round_sat") }
        guard let board else { throw reader.missing("pending_board_sat") }
        return ArkBalance(spendable: spendable, pendingLightningSend: lightningSend, claimableLightningReceive: lightningReceive,
                          pendingInRound: inRound, pendingExit: exit ?? nil, pendingBoard: board)
    }

    static func onchainBalance(_ reader: inout JSONReader) throws -> OnchainBalance {
        var total, trustedSpendable, immature, trustedPending, untrustedPending, confirmed: Int64?
        try reader.readObject { reader, key in
            if key.is("total_sat") { total = try reader.readSats() }
            else if key.is("trusted_spendable_sat") { trustedSpendable = try reader.readSats() }
            else if key.is("immature_sat") { immature = try reader.readSats() }
            else if key.is("trusted_pending_sat") { trustedPending = try reader.readSats() }
            else if key.is("untrusted_pending_sat") { untrustedPending = try reader.readSats() }
            else if key.is("confirmed_sat") { confirmed = try reader.readSats() }
            else { try reader.skipValue() }
        }
        guard let total else { throw reader.missing("total_sat") }
        guard let trustedSpendable else { throw reader.missing("trusted_spendable_sat") }
        guard let immature else { throw reader.missing("immature_sat") }
        guard let trustedPending else { throw reader.missing("trusted_pending_sat") }
        guard let untrustedPending else { throw reader.missing("untrusted_pending_sat") }
        guard let confirmed else { throw reader.missing("confirmed_sat") }
        return OnchainBalance(total: total, trustedSpendable: trustedSpendable, immature: immature,
                              trustedPending: trustedPending, untrustedPending: untrustedPending, confirmed: confirmed)
    }

    /// A `Movement`. Its five lists (`sent_to`, `received_on`, `input_vtxos`, `output_vtxos`,
    /// `exited_vtxos`) may be absent, meaning empty: barkd sends them always, but bark's own
    /// documentation of movements (docs/movements.md) leaves empty ones out, so a daemon or
    /// proxy written from it would too, and walletwatch needs none of them to record a movement.
    /// When present they are read as strictly as the rest.
    static func movement(_ reader: inout JSONReader) throws -> MovementData {
        var id, intended, effective, fee: Int64?
        var status: MovementData.Status?
        var subsystem: (name: String, kind: String)?
        var sentTo: [String] = [], receivedOn: [String] = []
        var time: (created: Instant, updated: Instant, completed: Instant?)?
        try reader.readObject { reader, key in
            if key.is("id") {
                let value = try reader.readNonNegativeInt64()
                guard value <= Int64(Int32.max) else { throw reader.error("is larger than a 32-bit movement id") }
                id = value
            } else if key.is("status") {
                let text = try reader.readString()
                guard let parsed = MovementData.Status(rawValue: text) else {
                    throw reader.error("\(JSONReader.shown(text)) is not a movement status (pending, successful, failed, canceled)")
                }
                status = parsed
            } else if key.is("subsystem") {
                subsystem = try self.subsystem(&reader)
            } else if key.is("intended_balance_sat") {
                intended = try reader.readSats(signed: true)
            } else if key.is("effective_balance_sat") {
                effective = try reader.readSats(signed: true)
            } else if key.is("offchain_fee_sat") {
                fee = try reader.readSats()
            } else if key.is("sent_to") {
                sentTo = try destinations(&reader)
            } else if key.is("received_on") {
                receivedOn = try destinations(&reader)
            } else if key.is("input_vtxos") || key.is("output_vtxos") || key.is("exited_vtxos") {
                try reader.skipStrings()
            } else if key.is("time") {
                time = try timestamps(&reader)
            } else {
                try reader.skipValue()
            }
        }
        guard let id else { throw reader.missing("id") }
        guard let status else { throw reader.missing("status") }
        guard let subsystem else { throw reader.missing("subsystem") }
        guard intended != nil else { throw reader.missing("intended_balance_sat") }
        guard let effective else { throw reader.missing("effective_balance_sat") }
        guard let fee else { throw reader.missing("offchain_fee_sat") }
        guard let time else { throw reader.missing("time") }
        return MovementData(id: id, status: status, subsystem: subsystem.name, kind: subsystem.kind, effectiveBalance: effective,
                            offchainFee: fee, sentTo: sentTo, receivedOn: receivedOn, createdAt: time.created,
                            updatedAt: time.updated, completedAt: time.completed)
    }

    private static func subsystem(_ reader: inout JSONReader) throws -> (name: String, kind: String) {
        var name, kind: String?
        try reader.readObject { reader, key in
            if key.is("name") { name = try reader.readString(usually: MovementMapping.knownSubsystems) }
            else if key.is("kind") { kind = try reader.readString() }
            else { try reader.skipValue() }
        }
        guard let name else { throw reader.missing("name") }
        guard let kind else { throw reader.missing("kind") }
        return (name, kind)
    }

    private static func destinations(_ reader: inout JSONReader) throws -> [String] {
        var values: [String] = []
        try reader.readArray { reader, _ in
            var value: String?
            var amount: Int64?
            try reader.readObject { reader, key in
                if key.is("destination") {
                    var type: String?
                    try reader.readObject { reader, key in
                        if key.is("value") { value = try reader.readString() }
                        else if key.is("type") { type = try reader.readString() }
                        else { try reader.skipValue() }
                    }
                    guard type != nil else { throw reader.missing("type") }
                    guard value != nil else { throw reader.missing("value") }
                } else if key.is("amount_sat") {
                    amount = try reader.readSats()
                } else {
                    try reader.skipValue()
                }
            }
            guard let value else { throw reader.missing("destination") }
            guard amount != nil else { throw reader.missing("amount_sat") }
            values.append(value)
        }
        return values
    }

    private static func timestamps(_ reader: inout JSONReader) throws -> (created: Instant, updated: Instant, completed: Instant?) {
        var created, updated, completed: Instant?
        try reader.readObject { reader, key in
            if key.is("created_at") { created = try reader.readInstant() }
            else if key.is("updated_at") { updated = try reader.readInstant() }
            else if key.is("completed_at") { completed = try reader.readOptionalInstant() }
            else { try reader.skipValue() }
        }
        guard let created else { throw reader.missing("created_at") }
        guard let updated else { throw reader.missing("updated_at") }
        return (created, updated, completed)
    }

    static func walletTransaction(_ reader: inout JSONReader) throws -> WalletTransaction {
        var txid: String?
        var change: Int64?
        var height: Int64?
        var fee: Int64?
        var hasTx = false, hasCPFP = false
        try reader.readObject { reader, key in
            if key.is("txid") { txid = try reader.readTxid() }
            else if key.is("balance_change_sat") { change = try reader.readSats(signed: true) }
            else if key.is("tx") { _ = try reader.readString(); hasTx = true }
            else if key.is("is_cpfp") { _ = try reader.readBool(); hasCPFP = true }
            else if key.is("onchain_fee_sat") { fee = try reader.readOptionalSats() }
            else if key.is("confirmation") {
                if reader.readNull() { return }
                var blockHeight: Int64?
                var hash: String?
                try reader.readObject { reader, key in
                    if key.is("height") { blockHeight = try reader.readNonNegativeInt64() }
                    else if key.is("hash") { hash = try reader.readString() }
                    else { try reader.skipValue() }
                }
                guard blockHeight != nil else { throw reader.missing("height") }
                guard hash != nil else { throw reader.missing("hash") }
                height = blockHeight
            } else { try reader.skipValue() }
        }
        guard let txid else { throw reader.missing("txid") }
        guard let change else { throw reader.missing("balance_change_sat") }
        guard hasTx else { throw reader.missing("tx") }
        guard hasCPFP else { throw reader.missing("is_cpfp") }
        return WalletTransaction(txid: txid, balanceChange: change, confirmationHeight: height, fee: fee)
    }

    /// The states a VTXO can be in (`VtxoStateInfo`).
    static let vtxoStates: Set<String> = ["spendable", "spent", "exited", "locked"]

    /// `WalletVtxoInfo`: a `VtxoInfo` with its wallet `state`. Fields walletwatch does not keep
    /// are still required as documented, so that an answer of another shape is refused.
    static func vtxo(_ reader: inout JSONReader) throws -> VTXO {
        var id: String?
        var amount, expiry, exitDelta: Int64?
        var state: String?
        var policy = false, userKey = false, serverKey = false, anchor = false
        try reader.readObject { reader, key in
            if key.is("id") { id = try reader.readOutpoint() }
            else if key.is("amount_sat") { amount = try reader.readSats() }
            else if key.is("expiry_height") { expiry = try reader.readNonNegativeInt64() }
            else if key.is("exit_delta") { exitDelta = try reader.readBlockDelta() }
            else if key.is("policy_type") { _ = try reader.readString(); policy = true }
            else if key.is("user_pubkey") { _ = try reader.readString(); userKey = true }
            else if key.is("server_pubkey") { _ = try reader.readString(); serverKey = true }
            else if key.is("chain_anchor") { _ = try reader.readString(); anchor = true }
            else if key.is("state") {
                try reader.readObject { reader, key in
                    if key.is("type") {
                        let text = try reader.readString()
                        guard vtxoStates.contains(text) else {
                            throw reader.error("\(JSONReader.shown(text)) is not a VTXO state (\(vtxoStates.sorted().joined(separator: ", ")))")
                        }
                        state = text
                    } else { try reader.skipValue() }
                }
                guard state != nil else { throw reader.missing("type") }
            } else { try reader.skipValue() }
        }
        guard let id else { throw reader.missing("id") }
        guard let amount else { throw reader.missing("amount_sat") }
        guard policy else { throw reader.missing("policy_type") }
        guard userKey else { throw reader.missing("user_pubkey") }
        guard serverKey else { throw reader.missing("server_pubkey") }
        guard let expiry else { throw reader.missing("expiry_height") }
        guard exitDelta != nil else { throw reader.missing("exit_delta") }
        guard anchor else { throw reader.missing("chain_anchor") }
        guard let state else { throw reader.missing("state") }
        return VTXO(id: id, amount: amount, expiryHeight: expiry, state: state)
    }

    static func utxo(_ reader: inout JSONReader) throws -> UTXO {
        var outpoint: String?
        var amount: Int64?
        var height: Int64?
        try reader.readObject { reader, key in
            if key.is("outpoint") { outpoint = try reader.readOutpoint() }
            else if key.is("amount_sat") { amount = try reader.readSats() }
            else if key.is("confirmation_height") { height = try reader.readOptionalInt64(nonNegative: true) }
            else { try reader.skipValue() }
        }
        guard let outpoint else { throw reader.missing("outpoint") }
        guard let amount else { throw reader.missing("amount_sat") }
        return UTXO(outpoint: outpoint, amount: amount, confirmationHeight: height)
    }

    /// `ArkInfo`'s required fields that walletwatch does not keep: present, whatever their value.
    static let arkInfoRequired: [String] = [
        "mailbox_pubkey", "nb_round_nonces", "vtxo_exit_delta", "htlc_send_expiry_delta", "htlc_expiry_delta", "max_vtxo_amount",
        "required_board_confirmations", "max_user_invoice_cltv_delta", "min_board_amount_sat", "offboard_feerate_sat_per_kvb",
        "ln_receive_anti_dos_required", "fees", "max_vtxo_exit_depth", "max_offboard_inputs",
    ]

    /// `ArkInfo`. The VTXO lifetime is `vtxo_lifetime` in bark master (after 0.6.0) and
    /// `vtxo_expiry_delta` up to 0.6.0; master still sends the old name, deprecated, with the
    /// same value, and a later release will drop it. Either (or both, agreeing) is accepted;
    /// with neither the lifetime is unknown (nil), not an error (bark's own client accepts
    /// that too).
    static func arkInfo(_ reader: inout JSONReader) throws -> ArkServerInfo {
        var network, pubkey, interval: String?
        var lifetime, expiryDelta: Int64?
        var present: Set<String> = []
        try reader.readObject { reader, key in
            if key.is("network") { network = try reader.readString() }
            else if key.is("server_pubkey") { pubkey = try reader.readString() }
            else if key.is("round_interval") { interval = try reader.readString() }
            else if key.is("vtxo_lifetime") { lifetime = try reader.readOptionalBlockDelta() }
            else if key.is("vtxo_expiry_delta") { expiryDelta = try reader.readOptionalBlockDelta() }
            else {
                let name = key.string
                if arkInfoRequired.contains(name) { present.insert(name) }
                try reader.skipValue()
            }
        }
        if let absent = arkInfoRequired.first(where: { !present.contains($0) }) { throw reader.missing(absent) }
        guard let network else { throw reader.missing("network") }
        guard let pubkey else { throw reader.missing("server_pubkey") }
        guard let interval else { throw reader.missing("round_interval") }
        if let lifetime, let expiryDelta, lifetime != expiryDelta {
            throw reader.error("vtxo_lifetime (\(lifetime)) and its deprecated name vtxo_expiry_delta (\(expiryDelta)) differ")
        }
        return ArkServerInfo(network: network, serverPubkey: pubkey, roundInterval: interval, vtxoLifetime: lifetime ?? expiryDelta)
    }

    static func tip(_ reader: inout JSONReader) throws -> Int64 {
        var height: Int64?
        try reader.readObject { reader, key in
            if key.is("tip_height") { height = try reader.readNonNegativeInt64() } else { try reader.skipValue() }
        }
        guard let height else { throw reader.missing("tip_height") }
        return height
    }

    static func notifications(_ reader: inout JSONReader) throws -> NotificationBatch {
        var notifications: [WalletNotification]?
        var lastPushed: String?
        try reader.readObject { reader, key in
            if key.is("last_pushed_at") {
                lastPushed = try reader.readOptionalString()
                if let text = lastPushed, Instant(iso8601: text) == nil { throw reader.error("\(JSONReader.shown(text)) is not an ISO 8601 timestamp") }
            }
            else if key.is("notifications") {
                var list: [WalletNotification] = []
                try reader.readArray { reader, _ in
                    var kind: WalletNotification.Kind?
                    var movementID: Int64?
                    try reader.readObject { reader, key in
                        if key.is("type") {
                            let text = try reader.readString()
                            guard let parsed = WalletNotification.Kind(rawValue: text) else {
                                throw reader.error("\(JSONReader.shown(text)) is not a notification type")
                            }
                            kind = parsed
                        } else if key.is("movement") {
                            movementID = try movement(&reader).id
                        } else { try reader.skipValue() }
                    }
                    guard let kind else { throw reader.missing("type") }
                    list.append(WalletNotification(kind: kind, movementID: movementID))
                }
                notifications = list
            } else { try reader.skipValue() }
        }
        guard let notifications else { throw reader.missing("notifications") }
        return NotificationBatch(notifications: notifications, lastPushedAt: lastPushed)
    }
}

extension JSONReader {
    /// barkd's `BlockDelta` (documented as `u16`): a block count from 0 to 65535.
    mutating func readBlockDelta() throws -> Int64 {
        let value = try readNonNegativeInt64()
        guard value <= Int64(UInt16.max) else { throw error("\(value) is larger than a 16-bit block count") }
        return value
    }

    /// A `BlockDelta` or null.
    mutating func readOptionalBlockDelta() throws -> Int64? {
        if readNull() { return nil }
        return try readBlockDelta()
    }
}
