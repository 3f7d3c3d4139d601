/// The JSON Fulmine's and arkd's gateways write (protojson with every field emitted:
/// lowerCamelCase, 64-bit integers as decimal strings, 32-bit ones as numbers, enums by name),
/// as the pinned documents in Tests/WalletWatchSimTests/Fixtures/specs/ describe it. Keys are
/// written in the order of each type's `CodingKeys`.

/// `Outpoint` / `IndexerOutpoint` / Fulmine's `Input`.
struct ArkadeOutpointWire: Codable, Sendable, Hashable {
    var txid: String
    var vout: Int
}

/// `IndexerVtxo` (arkd) and `Vtxo` (Fulmine): the same fields; the indexer adds `assets` and `depth`.
struct ArkadeVtxoWire: Encodable, Sendable {
    var outpoint: ArkadeOutpointWire
    var createdAt: String
    var expiresAt: String
    var amount: String
    var script: String
    var isPreconfirmed: Bool
    var isSwept: Bool
    var isUnrolled: Bool
    var isSpent: Bool
    var spentBy: String
    var commitmentTxids: [String]
    var settledBy: String
    var arkTxid: String
    /// Indexer only (nil leaves the key out, as Fulmine's `Vtxo` has none).
    var assets: [String]?
    var depth: Int?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(outpoint, forKey: .outpoint)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(amount, forKey: .amount)
        try c.encode(script, forKey: .script)
        try c.encode(isPreconfirmed, forKey: .isPreconfirmed)
        try c.encode(isSwept, forKey: .isSwept)
        try c.encode(isUnrolled, forKey: .isUnrolled)
        try c.encode(isSpent, forKey: .isSpent)
        try c.encode(spentBy, forKey: .spentBy)
        try c.encode(commitmentTxids, forKey: .commitmentTxids)
        try c.encode(settledBy, forKey: .settledBy)
        try c.encode(arkTxid, forKey: .arkTxid)
        try c.encodeIfPresent(assets, forKey: .assets)
        try c.encodeIfPresent(depth, forKey: .depth)
    }

    private enum CodingKeys: String, CodingKey {
        case outpoint, createdAt, expiresAt, amount, script, isPreconfirmed, isSwept, isUnrolled, isSpent, spentBy,
             commitmentTxids, settledBy, arkTxid, assets, depth
    }
}

struct FulmineBalanceWire: Encodable, Sendable { var amount: String }

/// `TransactionInfo`.
struct FulmineTransactionWire: Encodable, Sendable {
    var date: String
    var amount: String
    var commitmentTxid: String
    var arkTxid: String
    var boardingTxid: String
    var type: String
    var settledBy: String
}

struct FulmineTransactionsWire: Encodable, Sendable { var transactions: [FulmineTransactionWire] }
struct ArkadeVtxosWire: Encodable, Sendable { var vtxos: [ArkadeVtxoWire] }

/// Fulmine's `BuildInfo`.
struct FulmineBuildInfoWire: Encodable, Sendable {
    var version: String
    var commit: String
    var date: String
}

/// Fulmine's `GetInfoResponse`.
struct FulmineInfoWire: Encodable, Sendable {
    var network: String
    var addrPrefix: String
    var serverUrl: String
    var buildInfo: FulmineBuildInfoWire
    var pubkey: String
    var signerPubkey: String
}

/// `google.rpc.Status`, the gateways' error body.
struct RPCStatusWire: Encodable, Sendable {
    var code: Int
    var message: String
    var details: [String] = []
}

/// arkd's `GetVtxosResponse`: `page` is null when no page was asked for.
struct IndexerVtxosWire: Encodable, Sendable {
    struct Page: Encodable, Sendable {
        var current: Int
        var next: Int
        var total: Int
    }

    var vtxos: [ArkadeVtxoWire]
    var page: Page?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(vtxos, forKey: .vtxos)
        if let page { try c.encode(page, forKey: .page) } else { try c.encodeNil(forKey: .page) }
    }

    private enum CodingKeys: String, CodingKey { case vtxos, page }
}

/// arkd's `GetInfoResponse`, the fields a watcher reads and a few beside them.
struct ArkdInfoWire: Encodable, Sendable {
    var signerPubkey: String
    var forfeitPubkey: String
    var network: String
    var sessionDuration: String
    var unilateralExitDelay: String
    var boardingExitDelay: String
    var version: String
    var dust: String
}

struct SubscribeResponseWire: Encodable, Sendable { var subscriptionId: String }
struct EmptyWire: Encodable, Sendable {}

/// arkd's `IndexerSubscriptionEvent`.
struct IndexerEventWire: Encodable, Sendable {
    var txid: String
    var scripts: [String]
    var newVtxos: [ArkadeVtxoWire]
    var spentVtxos: [ArkadeVtxoWire]
    var sweptVtxos: [ArkadeVtxoWire]
    var tx: String = ""
    var checkpointTxs: [String: String] = [:]
}

/// arkd's `GetSubscriptionResponse`: exactly one of its members (a protobuf oneof).
struct SubscriptionMessageWire: Encodable, Sendable {
    var event: IndexerEventWire?
    var heartbeat: EmptyWire?
    var subscriptionStarted: EmptyWire?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(event, forKey: .event)
        try c.encodeIfPresent(heartbeat, forKey: .heartbeat)
        try c.encodeIfPresent(subscriptionStarted, forKey: .subscriptionStarted)
    }

    private enum CodingKeys: String, CodingKey { case event, heartbeat, subscriptionStarted }
}

/// Fulmine's `Notification`.
struct FulmineNotificationWire: Encodable, Sendable {
    var addresses: [String]
    var newVtxos: [ArkadeVtxoWire]
    var spentVtxos: [ArkadeVtxoWire]
    var txid: String
    var tx: String
    var checkpoints: [String: String]
}

struct FulmineNotificationsResponseWire: Encodable, Sendable { var notification: FulmineNotificationWire }

/// One line of a grpc-gateway server stream: `{"result": ...}`.
struct FulmineStreamResultWire: Encodable, Sendable { var result: FulmineNotificationsResponseWire }
