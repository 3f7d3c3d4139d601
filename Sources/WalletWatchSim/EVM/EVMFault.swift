/// A fault of the EVM face, on the calls whose name matches `method`: a JSON-RPC method
/// (`eth_getLogs`), an explorer call (`etherscan.txlist`, `blockscout.tokentx`), a prefix ending in
/// `*` (`ots_*`, `etherscan.*`), or `*` for every call. Unlike the HTTP faults, every matching
/// EVM fault applies to a call (an omitted transaction and a lagging explorer together). With
/// `times` set, a fault clears itself after that many calls it applied to.
///
/// JSON form (flat): `{"kind": "rpc_error", "method": "eth_getBalance", "message": "boom", "times": 1}`.
/// Kinds, their parameters and the calls they change (`method` defaults to `*`: all of those):
/// `wrong_chain_id` (`chain_id`): `eth_chainId` and `net_version` answer another chain;
/// `non_hex_quantity`: quantities in decimal (`"12"`, not `"0xc"`);
/// `wrong_type`: a result of the wrong JSON type (a string becomes an object, an object or array
/// `"0x1"`, a boolean `"true"`, a number or null an array);
/// `rpc_error` (`code`, default -32000, `message`): a JSON-RPC error object;
/// `foreign_log`: `eth_getLogs` also answers a `Transfer` log of a contract not asked for
/// (`0x000000000000000000000000000000000000dead`);
/// `omit_transaction` (`hash`): every history (`eth_getLogs`, Otterscan's search and internal
/// operations, the explorers' lists) leaves it out while balances count it: a history that does
/// not reconcile;
/// `ots_unavailable`: `ots_` methods do not exist (a geth or reth node);
/// `rate_limit`: an explorer answers Etherscan's `Max rate limit reached`;
/// `calls_per_second` (`limit`, default 3): an explorer answers more calls than that within a
/// second with `Max calls per sec rate limit reached (N/sec)`, as the free tier does;
/// `chain_unsupported`: Etherscan answers that the free tier does not cover the chain;
/// `lag_blocks` (`blocks`): the explorers answer as of that many blocks ago (an index trailing the tip);
/// `log_range_limit` (`blocks`): `eth_getLogs` over more blocks than that answers the error public
/// providers give (`exceed maximum block range: N`, as BSC's and other geth forks' nodes word it);
/// every `eth_getLogs` counts against its `times`, answered or not.
public struct EVMFault: Sendable, Hashable, Codable, ScopedFault {
    /// An exact call name, a prefix ending in `*`, or `*`.
    public var method: String
    /// What the fault does.
    public var kind: EVMFaultKind
    /// Apply the fault this many times, then drop it; nil = until cleared.
    public var times: Int?

    /// A fault of `kind` on the calls `method` matches (default `*`: every call the kind changes).
    public init(_ kind: EVMFaultKind, on method: String? = nil, times: Int? = nil) {
        self.kind = kind
        self.method = method ?? "*"
        self.times = times
    }

    /// Whether the fault applies to a call of `name`.
    public func matches(_ name: String) -> Bool { Self.scope(method, matches: name) }

    private enum CodingKeys: String, CodingKey {
        case method, kind, times, code, message, hash, limit, blocks
        case chainID = "chain_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .kind)
        let kind: EVMFaultKind
        switch name {
        case "wrong_chain_id": kind = .wrongChainID(try c.decode(Int.self, forKey: .chainID))
        case "non_hex_quantity": kind = .nonHexQuantity
        case "wrong_type": kind = .wrongType
        case "rpc_error":
            kind = .rpcError(code: try c.decodeIfPresent(Int.self, forKey: .code) ?? -32000, message: try c.decode(String.self, forKey: .message))
        case "foreign_log": kind = .foreignLog
        case "omit_transaction": kind = .omitTransaction(try c.decode(EVMHash.self, forKey: .hash))
        case "ots_unavailable": kind = .otsUnavailable
        case "rate_limit": kind = .rateLimit
        case "calls_per_second": kind = .callsPerSecond(try c.decodeIfPresent(Int.self, forKey: .limit) ?? 3)
        case "chain_unsupported": kind = .chainUnsupported
        case "lag_blocks": kind = .lagBlocks(try c.decode(Int.self, forKey: .blocks))
        case "log_range_limit": kind = .logRangeLimit(try c.decode(Int.self, forKey: .blocks))
        default: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown EVM fault kind \(name)")
        }
        self.init(kind, on: try c.decodeIfPresent(String.self, forKey: .method), times: try c.decodeIfPresent(Int.self, forKey: .times))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(method, forKey: .method)
        try c.encode(kind.name, forKey: .kind)
        try c.encodeIfPresent(times, forKey: .times)
        switch kind {
        case .wrongChainID(let id): try c.encode(id, forKey: .chainID)
        case .rpcError(let code, let message):
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
        case .omitTransaction(let hash): try c.encode(hash, forKey: .hash)
        case .callsPerSecond(let limit): try c.encode(limit, forKey: .limit)
        case .lagBlocks(let blocks), .logRangeLimit(let blocks): try c.encode(blocks, forKey: .blocks)
        case .nonHexQuantity, .wrongType, .foreignLog, .otsUnavailable, .rateLimit, .chainUnsupported: break
        }
    }
}

/// What an EVM fault does (see ``EVMFault``).
public enum EVMFaultKind: Sendable, Hashable {
    case wrongChainID(Int)
    case nonHexQuantity
    case wrongType
    case rpcError(code: Int, message: String)
    case foreignLog
    case omitTransaction(EVMHash)
    case otsUnavailable
    case rateLimit
    case callsPerSecond(Int)
    case chainUnsupported
    case lagBlocks(Int)
    case logRangeLimit(Int)

    /// The kind's name in JSON and in the request log.
    public var name: String {
        switch self {
        case .wrongChainID: "wrong_chain_id"
        case .nonHexQuantity: "non_hex_quantity"
        case .wrongType: "wrong_type"
        case .rpcError: "rpc_error"
        case .foreignLog: "foreign_log"
        case .omitTransaction: "omit_transaction"
        case .otsUnavailable: "ots_unavailable"
        case .rateLimit: "rate_limit"
        case .callsPerSecond: "calls_per_second"
        case .chainUnsupported: "chain_unsupported"
        case .lagBlocks: "lag_blocks"
        case .logRangeLimit: "log_range_limit"
        }
    }

    /// Whether the kind changes a call of `name` at all (a fault counts a call against its
    /// `times` only when it changed it).
    func applies(to name: String) -> Bool {
        let explorer = name.hasPrefix("etherscan.") || name.hasPrefix("blockscout.")
        switch self {
        case .wrongChainID: return name == "eth_chainId" || name == "net_version"
        case .nonHexQuantity, .wrongType, .rpcError: return !explorer
        case .foreignLog, .logRangeLimit: return name == "eth_getLogs"
        case .omitTransaction: return explorer || EVMFaultKind.historyMethods.contains(name)
        case .otsUnavailable: return name.hasPrefix("ots_")
        case .rateLimit, .callsPerSecond, .lagBlocks: return explorer
        case .chainUnsupported: return name.hasPrefix("etherscan.")
        }
    }

    /// The JSON-RPC methods that tell a history, which `omit_transaction` edits.
    static let historyMethods: Set<String> = [
        "eth_getLogs", "ots_searchTransactionsAfter", "ots_searchTransactionsBefore", "ots_getInternalOperations",
    ]
}
