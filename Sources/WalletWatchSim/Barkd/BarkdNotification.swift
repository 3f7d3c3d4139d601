/// barkd's `WalletNotification`, tagged by `type` (serde's internally tagged enum).
public enum BarkdNotification: Sendable, Hashable, Codable {
    case movementCreated(BarkdMovement)
    case movementUpdated(BarkdMovement)
    /// Some notifications were lost because the client was too slow.
    case channelLagging

    /// The `type` tag.
    public var type: String {
        switch self {
        case .movementCreated: "movement-created"
        case .movementUpdated: "movement-updated"
        case .channelLagging: "channel-lagging"
        }
    }

    /// The movement the notification carries, if any.
    public var movement: BarkdMovement? {
        switch self {
        case .movementCreated(let movement), .movementUpdated(let movement): movement
        case .channelLagging: nil
        }
    }

    private enum CodingKeys: String, CodingKey { case type, movement }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "movement-created": self = .movementCreated(try c.decode(BarkdMovement.self, forKey: .movement))
        case "movement-updated": self = .movementUpdated(try c.decode(BarkdMovement.self, forKey: .movement))
        case "channel-lagging": self = .channelLagging
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown notification \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(movement, forKey: .movement)
    }
}

/// A notification as barkd buffers it: what happened and when it was pushed.
public struct TimedNotification: Sendable, Hashable {
    /// When barkd pushed it into its buffer (what `since` compares with).
    public var pushedAt: SimTime
    /// What happened.
    public var notification: BarkdNotification
}

/// barkd's `WaitNotificationResponse` (GET /api/v1/notifications/wait); `last_pushed_at` is
/// `null` when there is nothing to report.
struct WaitNotificationResponse: Encodable {
    var notifications: [BarkdNotification]
    var lastPushedAt: SimTime?

    private enum CodingKeys: String, CodingKey { case notifications, lastPushedAt = "last_pushed_at" }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(notifications, forKey: .notifications)
        try c.encode(lastPushedAt, forKey: .lastPushedAt)
    }
}

/// A change to an existing movement (the control API's "update"); nil fields stay as they are.
/// Setting the status to a final one without a `completedAt` completes the movement at the
/// update time, as bark does.
public struct MovementUpdate: Sendable, Hashable, Codable {
    /// The new status.
    public var status: BarkdMovementStatus?
    /// The new intended balance change.
    public var intendedBalanceSat: Int64?
    /// The new effective balance change.
    public var effectiveBalanceSat: Int64?
    /// The new off-chain fee.
    public var offchainFeeSat: Int64?
    /// The completion time (a final status without one completes at the update time).
    public var completedAt: SimTime?
    /// Defaults to the simulator's clock at the time of the update.
    public var updatedAt: SimTime?

    /// An update; fields left nil keep their value.
    public init(
        status: BarkdMovementStatus? = nil, intendedBalanceSat: Int64? = nil, effectiveBalanceSat: Int64? = nil,
        offchainFeeSat: Int64? = nil, completedAt: SimTime? = nil, updatedAt: SimTime? = nil
    ) {
        self.status = status
        self.intendedBalanceSat = intendedBalanceSat
        self.effectiveBalanceSat = effectiveBalanceSat
        self.offchainFeeSat = offchainFeeSat
        self.completedAt = completedAt
        self.updatedAt = updatedAt
    }

    private enum CodingKeys: String, CodingKey {
        case status, intendedBalanceSat = "intended_balance_sat", effectiveBalanceSat = "effective_balance_sat"
        case offchainFeeSat = "offchain_fee_sat", completedAt = "completed_at", updatedAt = "updated_at"
    }

    /// `movement` with this update applied at `now`.
    func applied(to movement: BarkdMovement, now: SimTime) -> BarkdMovement {
        var result = movement
        if let status { result.status = status }
        if let intendedBalanceSat { result.intendedBalanceSat = intendedBalanceSat }
        if let effectiveBalanceSat { result.effectiveBalanceSat = effectiveBalanceSat }
        if let offchainFeeSat { result.offchainFeeSat = offchainFeeSat }
        result.time.updatedAt = updatedAt ?? now
        if let completedAt {
            result.time.completedAt = completedAt
        } else if result.status != .pending, result.time.completedAt == nil {
            result.time.completedAt = result.time.updatedAt
        }
        return result
    }
}
