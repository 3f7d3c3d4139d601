/// barkd's `Movement`: one attempted movement of off-chain funds, as GET /api/v1/history
/// serves it. Field order and omissions follow bark-json: `metadata` and `time.completed_at`
/// are left out when absent.
public struct BarkdMovement: Sendable, Hashable, Codable {
    /// The wallet's internal id; 0 in a scenario or control request means "assign the next one".
    public var id: Int
    /// `status` on the wire.
    public var status: BarkdMovementStatus
    /// `subsystem` on the wire.
    public var subsystem: BarkdMovementSubsystem
    /// Subsystem-defined JSON object, or nil (omitted).
    public var metadata: JSONValue?
    /// `intended_balance_sat` on the wire.
    public var intendedBalanceSat: Int64
    /// The signed change of the balance: positive in, negative out.
    public var effectiveBalanceSat: Int64
    /// `offchain_fee_sat` on the wire.
    public var offchainFeeSat: Int64
    /// `sent_to` on the wire.
    public var sentTo: [BarkdMovementDestination]
    /// `received_on` on the wire.
    public var receivedOn: [BarkdMovementDestination]
    /// `input_vtxos` on the wire.
    public var inputVtxos: [String]
    /// `output_vtxos` on the wire.
    public var outputVtxos: [String]
    /// `exited_vtxos` on the wire.
    public var exitedVtxos: [String]
    /// `time` on the wire.
    public var time: BarkdMovementTimestamp

    /// A movement; `intendedBalanceSat` defaults to `effectiveBalanceSat`.
    public init(
        id: Int = 0, status: BarkdMovementStatus = .successful, subsystem: BarkdMovementSubsystem,
        metadata: JSONValue? = nil, intendedBalanceSat: Int64? = nil, effectiveBalanceSat: Int64,
        offchainFeeSat: Int64 = 0, sentTo: [BarkdMovementDestination] = [], receivedOn: [BarkdMovementDestination] = [],
        inputVtxos: [String] = [], outputVtxos: [String] = [], exitedVtxos: [String] = [],
        time: BarkdMovementTimestamp
    ) {
        self.id = id
        self.status = status
        self.subsystem = subsystem
        self.metadata = metadata
        self.intendedBalanceSat = intendedBalanceSat ?? effectiveBalanceSat
        self.effectiveBalanceSat = effectiveBalanceSat
        self.offchainFeeSat = offchainFeeSat
        self.sentTo = sentTo
        self.receivedOn = receivedOn
        self.inputVtxos = inputVtxos
        self.outputVtxos = outputVtxos
        self.exitedVtxos = exitedVtxos
        self.time = time
    }

    /// In bark-json's order, which the encoding follows.
    private enum CodingKeys: String, CodingKey {
        case id, status, subsystem, metadata
        case intendedBalanceSat = "intended_balance_sat", effectiveBalanceSat = "effective_balance_sat"
        case offchainFeeSat = "offchain_fee_sat", sentTo = "sent_to", receivedOn = "received_on"
        case inputVtxos = "input_vtxos", outputVtxos = "output_vtxos", exitedVtxos = "exited_vtxos", time
    }

    /// Reads a movement leniently: only `subsystem`, `effective_balance_sat` and `time.created_at`
    /// are needed; the rest defaults (id 0 = auto, successful, no fee, empty lists, updated at
    /// creation, and for a finished movement completed at the last update unless
    /// `completed_at` is given, `null` included).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let effective = try c.decode(Int64.self, forKey: .effectiveBalanceSat)
        let metadata = try c.decodeIfPresent(JSONValue.self, forKey: .metadata)
        self.init(
            id: try c.decodeIfPresent(Int.self, forKey: .id) ?? 0,
            status: try c.decodeIfPresent(BarkdMovementStatus.self, forKey: .status) ?? .successful,
            subsystem: try c.decode(BarkdMovementSubsystem.self, forKey: .subsystem),
            metadata: metadata == .null ? nil : metadata,
            intendedBalanceSat: try c.decodeIfPresent(Int64.self, forKey: .intendedBalanceSat),
            effectiveBalanceSat: effective,
            offchainFeeSat: try c.decodeIfPresent(Int64.self, forKey: .offchainFeeSat) ?? 0,
            sentTo: try c.decodeIfPresent([BarkdMovementDestination].self, forKey: .sentTo) ?? [],
            receivedOn: try c.decodeIfPresent([BarkdMovementDestination].self, forKey: .receivedOn) ?? [],
            inputVtxos: try c.decodeIfPresent([String].self, forKey: .inputVtxos) ?? [],
            outputVtxos: try c.decodeIfPresent([String].self, forKey: .outputVtxos) ?? [],
            exitedVtxos: try c.decodeIfPresent([String].self, forKey: .exitedVtxos) ?? [],
            time: try c.decode(BarkdMovementTimestamp.self, forKey: .time))
        // A finished movement always has a completion time in barkd; one left out (rather
        // than given as null) is taken to be the last update.
        let times = try c.nestedContainer(keyedBy: BarkdMovementTimestamp.CodingKeys.self, forKey: .time)
        if status != .pending, !times.contains(.completedAt) {
            time.completedAt = time.updatedAt
        }
    }

    /// Whether this movement mentions the payment method (barkd's history filter).
    func involves(_ method: BarkdPaymentMethod) -> Bool {
        sentTo.contains { $0.destination == method } || receivedOn.contains { $0.destination == method }
    }
}

/// barkd's `MovementStatus`.
public enum BarkdMovementStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case pending, successful, failed, canceled
}

/// barkd's `MovementSubsystem`: which part of bark made the movement, and why.
public struct BarkdMovementSubsystem: Sendable, Hashable, Codable {
    /// `bark.arkoor`, `bark.round`, `bark.lightning_send`, ... (unknown names are allowed).
    public var name: String
    /// `send`, `receive`, `refresh`, `board`, `offboard`, `send_onchain`, `start`, ...
    public var kind: String

    /// A subsystem by name and kind.
    public init(name: String, kind: String) {
        self.name = name
        self.kind = kind
    }

    /// An out-of-round Ark payment sent.
    public static let arkoorSend = BarkdMovementSubsystem(name: "bark.arkoor", kind: "send")
    /// An out-of-round Ark payment received.
    public static let arkoorReceive = BarkdMovementSubsystem(name: "bark.arkoor", kind: "receive")
    /// VTXOs refreshed in a round.
    public static let roundRefresh = BarkdMovementSubsystem(name: "bark.round", kind: "refresh")
    /// VTXOs offboarded in a round.
    public static let roundOffboard = BarkdMovementSubsystem(name: "bark.round", kind: "offboard")
    /// A Lightning payment sent.
    public static let lightningSend = BarkdMovementSubsystem(name: "bark.lightning_send", kind: "send")
    /// A Lightning payment received.
    public static let lightningReceive = BarkdMovementSubsystem(name: "bark.lightning_receive", kind: "receive")
    /// On-chain funds boarded into Ark.
    public static let board = BarkdMovementSubsystem(name: "bark.board", kind: "board")
    /// Ark funds offboarded to an on-chain address.
    public static let offboard = BarkdMovementSubsystem(name: "bark.offboard", kind: "offboard")
    /// An on-chain payment made from Ark funds.
    public static let sendOnchain = BarkdMovementSubsystem(name: "bark.offboard", kind: "send_onchain")
    /// A unilateral exit started.
    public static let exitStart = BarkdMovementSubsystem(name: "bark.exit", kind: "start")
}

/// barkd's `MovementTimestamp`.
public struct BarkdMovementTimestamp: Sendable, Hashable, Codable {
    /// `created_at` on the wire.
    public var createdAt: SimTime
    /// `updated_at` on the wire.
    public var updatedAt: SimTime
    /// nil while the movement is in progress (omitted from the JSON, as barkd does).
    public var completedAt: SimTime?

    /// Times; `updatedAt` defaults to `createdAt`.
    public init(createdAt: SimTime, updatedAt: SimTime? = nil, completedAt: SimTime? = nil) {
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.completedAt = completedAt
    }

    /// A movement created, updated and completed at one instant.
    public static func completed(at time: SimTime) -> BarkdMovementTimestamp {
        BarkdMovementTimestamp(createdAt: time, updatedAt: time, completedAt: time)
    }

    /// A movement still in progress since `time`.
    public static func pending(since time: SimTime) -> BarkdMovementTimestamp {
        BarkdMovementTimestamp(createdAt: time)
    }

    fileprivate enum CodingKeys: String, CodingKey {
        case createdAt = "created_at", updatedAt = "updated_at", completedAt = "completed_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            createdAt: try c.decode(SimTime.self, forKey: .createdAt),
            updatedAt: try c.decodeIfPresent(SimTime.self, forKey: .updatedAt),
            completedAt: try c.decodeIfPresent(SimTime.self, forKey: .completedAt))
    }
}

/// barkd's `MovementDestination`: who received how much.
public struct BarkdMovementDestination: Sendable, Hashable, Codable {
    /// `destination` on the wire.
    public var destination: BarkdPaymentMethod
    /// `amount_sat` on the wire.
    public var amountSat: Int64

    /// A destination and the amount it got.
    public init(_ destination: BarkdPaymentMethod, amountSat: Int64) {
        self.destination = destination
        self.amountSat = amountSat
    }

    private enum CodingKeys: String, CodingKey {
        case destination, amountSat = "amount_sat"
    }
}

/// barkd's `PaymentMethod`: `{"type": ..., "value": ...}`.
public struct BarkdPaymentMethod: Sendable, Hashable, Codable {
    /// The `type` tag.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case ark, bitcoin, outputScript = "output-script", invoice, offer
        case lightningAddress = "lightning-address", lnurl, custom
    }

    /// `type` on the wire.
    public var type: Kind
    /// `value` on the wire.
    public var value: String

    /// A payment method of this type.
    public init(_ type: Kind, _ value: String) {
        self.type = type
        self.value = value
    }
}
