/// barkd's `WalletVtxoInfo` (GET /api/v1/wallet/vtxos): a VTXO's `VtxoInfo` fields flattened
/// together with its wallet `state`. `exit_depth` is `null` when unknown.
public struct BarkdVtxo: Sendable, Hashable, Codable {
    /// `txid:vout`.
    public var id: String
    /// `amount_sat` on the wire.
    public var amountSat: Int64
    /// `policy_type` on the wire.
    public var policyType: String
    /// `user_pubkey` on the wire.
    public var userPubkey: String
    /// `server_pubkey` on the wire.
    public var serverPubkey: String
    /// `expiry_height` on the wire.
    public var expiryHeight: Int
    /// `exit_delta` on the wire.
    public var exitDelta: Int
    /// The on-chain outpoint that roots the VTXO, `txid:vout`.
    public var chainAnchor: String
    /// `exit_depth` on the wire.
    public var exitDepth: Int?
    /// `state` on the wire.
    public var state: BarkdVtxoState

    /// A VTXO; keys and the anchor default to stable values derived from the id.
    public init(
        id: String, amountSat: Int64, expiryHeight: Int, state: BarkdVtxoState = .spendable,
        policyType: String = "pubkey", userPubkey: String? = nil, serverPubkey: String? = nil,
        exitDelta: Int = 144, chainAnchor: String? = nil, exitDepth: Int? = 1
    ) {
        self.id = id
        self.amountSat = amountSat
        self.policyType = policyType
        self.userPubkey = userPubkey ?? "02" + Fingerprint.hash256("user:" + id)
        self.serverPubkey = serverPubkey ?? BarkdArkInfo.defaultServerPubkey
        self.expiryHeight = expiryHeight
        self.exitDelta = exitDelta
        self.chainAnchor = chainAnchor ?? Fingerprint.hash256("anchor:" + id) + ":0"
        self.exitDepth = exitDepth
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case id, amountSat = "amount_sat", policyType = "policy_type", userPubkey = "user_pubkey"
        case serverPubkey = "server_pubkey", expiryHeight = "expiry_height", exitDelta = "exit_delta"
        case chainAnchor = "chain_anchor", exitDepth = "exit_depth", state
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id),
            amountSat: try c.decode(Int64.self, forKey: .amountSat),
            expiryHeight: try c.decode(Int.self, forKey: .expiryHeight),
            state: try c.decodeIfPresent(BarkdVtxoState.self, forKey: .state) ?? .spendable,
            policyType: try c.decodeIfPresent(String.self, forKey: .policyType) ?? "pubkey",
            userPubkey: try c.decodeIfPresent(String.self, forKey: .userPubkey),
            serverPubkey: try c.decodeIfPresent(String.self, forKey: .serverPubkey),
            exitDelta: try c.decodeIfPresent(Int.self, forKey: .exitDelta) ?? 144,
            chainAnchor: try c.decodeIfPresent(String.self, forKey: .chainAnchor),
            exitDepth: c.contains(.exitDepth) ? try c.decodeIfPresent(Int.self, forKey: .exitDepth) : 1)
    }

    /// barkd's order, with `exit_depth` as `null` when unknown.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(amountSat, forKey: .amountSat)
        try c.encode(policyType, forKey: .policyType)
        try c.encode(userPubkey, forKey: .userPubkey)
        try c.encode(serverPubkey, forKey: .serverPubkey)
        try c.encode(expiryHeight, forKey: .expiryHeight)
        try c.encode(exitDelta, forKey: .exitDelta)
        try c.encode(chainAnchor, forKey: .chainAnchor)
        try c.encode(exitDepth, forKey: .exitDepth)
        try c.encode(state, forKey: .state)
    }
}

/// barkd's `VtxoStateInfo`, tagged by `type`.
public enum BarkdVtxoState: Sendable, Hashable, Codable {
    case spendable
    case spent
    case exited
    /// Locked by an in-progress movement or action; absent ids are omitted.
    case locked(movementID: Int? = nil, actionID: String? = nil)

    /// The `type` tag.
    public var type: String {
        switch self {
        case .spendable: "spendable"
        case .spent: "spent"
        case .exited: "exited"
        case .locked: "locked"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type, movementID = "movement_id", actionID = "action_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "spendable": self = .spendable
        case "spent": self = .spent
        case "exited": self = .exited
        case "locked":
            self = .locked(movementID: try c.decodeIfPresent(Int.self, forKey: .movementID),
                           actionID: try c.decodeIfPresent(String.self, forKey: .actionID))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown VTXO state \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        if case .locked(let movementID, let actionID) = self {
            try c.encodeIfPresent(movementID, forKey: .movementID)
            try c.encodeIfPresent(actionID, forKey: .actionID)
        }
    }
}
