/// A fault injected on the Electrum face's answers to the calls whose method matches `method`:
/// an exact name such as `blockchain.scripthash.get_history`, a prefix ending in `*` such as
/// `blockchain.scripthash.*`, or `*` for every call. With `times` set, the fault clears itself
/// after that many calls.
///
/// JSON form (flat): `{"method": "blockchain.transaction.get", "kind": "wrong_transaction", "times": 1}`.
/// Kinds and their parameters:
/// `drop` (`after`: answers written first, default 0: the call is not answered), `stall`
/// (`seconds`, default 5: then it answers), `wrong_transaction` (`blockchain.transaction.get` answers
/// another transaction's bytes), `short_header` (`bytes`, default 79: headers of that length),
/// `wrong_status` (`blockchain.scripthash.subscribe` answers a status that is not its history's),
/// `not_jsonrpc` (JSON without `jsonrpc`, `result` or `error`), `error` (`code`, `message`),
/// `long_line` (`bytes`, default 2,000,000: one line that long), `history_too_large` (ElectrumX's
/// `{"code": 10001, "message": "history too large"}`), `version` (`version`, default "1.3": what
/// `server.version` answers), `garbage` (a line that is not JSON), `reversed_batch` (the batch
/// holding the call is answered in reverse order: JSON-RPC allows any order, and ElectrumX answers
/// a batch's calls in the order they complete), `repeated_entry` (a history lists its first
/// transaction twice, at two heights, and the status hashes that list; give it to
/// `blockchain.scripthash.*` so that both calls lie alike), `long_notification` (`bytes`, default
/// 100,000; `field`, `params` or `method`; `count`, default 1: that many notifications whose status,
/// or method name, is that long, sent before the answer), `notification` (`line`, a JSON text;
/// `count`, default 1: that line sent as it is, that many times, before the answer).
///
/// Lies told consistently, each given to `*` so that every call tells it (SPV, issue 26):
/// `forged_payment` (`address`; `value`, sats an output, default 500,000,000; `outputs`, default 1;
/// `height`, default 0: the mempool, else the block it claims; `padding`, bytes of an extra
/// OP_RETURN output, default 0): a transaction that pays the address and was never mined or
/// relayed, in the address's history and served raw, with a Merkle branch of a tree of the
/// block's transactions plus it; `every_script_used`: a script without history lists block 1's
/// coinbase; `behind` (`height`): a server whose chain ends there (its tip, its headers, its
/// histories); `retimed` (`height`, `time`: Unix seconds): block `height` dated `time`, it and the
/// blocks after it mined again so that the chain still links; `height` (`height`): every
/// confirmed entry of a history listed at that height.
public struct ElectrumFault: Sendable, Hashable, Codable, ScopedFault {
    /// An exact method, a prefix ending in `*`, or `*`.
    public var method: String
    /// What the fault does.
    public var kind: ElectrumFaultKind
    /// Serve the fault this many times, then drop it; nil = until cleared.
    public var times: Int?

    /// A fault of `kind` on `method`, optionally for `times` calls only.
    public init(_ kind: ElectrumFaultKind, on method: String, times: Int? = nil) {
        self.kind = kind
        self.method = method
        self.times = times
    }

    /// Whether the fault applies to a call of `name`.
    public func matches(_ name: String) -> Bool { Self.scope(method, matches: name) }

    private enum CodingKeys: String, CodingKey {
        case method, kind, times, after, seconds, bytes, code, message, version, field, count, line, address, value, outputs, height, padding, time
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(String.self, forKey: .method)
        times = try c.decodeIfPresent(Int.self, forKey: .times)
        let name = try c.decode(String.self, forKey: .kind)
        switch name {
        case "drop": kind = .drop(after: try c.decodeIfPresent(Int.self, forKey: .after) ?? 0)
        case "stall": kind = .stall(seconds: try c.decodeIfPresent(Double.self, forKey: .seconds) ?? 5)
        case "wrong_transaction": kind = .wrongTransaction
        case "short_header": kind = .shortHeader(bytes: try c.decodeIfPresent(Int.self, forKey: .bytes) ?? 79)
        case "wrong_status": kind = .wrongStatus
        case "not_jsonrpc": kind = .notJSONRPC
        case "error": kind = .error(code: try c.decode(Int.self, forKey: .code), message: try c.decode(String.self, forKey: .message))
        case "long_line": kind = .longLine(bytes: try c.decodeIfPresent(Int.self, forKey: .bytes) ?? 2_000_000)
        case "history_too_large": kind = .historyTooLarge
        case "version": kind = .version(try c.decodeIfPresent(String.self, forKey: .version) ?? "1.3")
        case "garbage": kind = .garbage
        case "reversed_batch": kind = .reversedBatch
        case "repeated_entry": kind = .repeatedEntry
        case "long_notification":
            let field = try c.decodeIfPresent(String.self, forKey: .field) ?? "params"
            guard ["params", "method"].contains(field) else {
                throw DecodingError.dataCorruptedError(forKey: .field, in: c, debugDescription: "field is params or method, not \(field)")
            }
            kind = .longNotification(bytes: try c.decodeIfPresent(Int.self, forKey: .bytes) ?? 100_000, inMethod: field == "method",
                                     count: try c.decodeIfPresent(Int.self, forKey: .count) ?? 1)
        case "notification":
            kind = .notification(line: try c.decode(String.self, forKey: .line), count: try c.decodeIfPresent(Int.self, forKey: .count) ?? 1)
        case "forged_payment":
            kind = .forgedPayment(address: try c.decode(String.self, forKey: .address), value: try c.decodeIfPresent(Int64.self, forKey: .value) ?? 500_000_000,
                                  outputs: try c.decodeIfPresent(Int.self, forKey: .outputs) ?? 1, height: try c.decodeIfPresent(Int.self, forKey: .height) ?? 0,
                                  padding: try c.decodeIfPresent(Int.self, forKey: .padding) ?? 0)
        case "every_script_used": kind = .everyScriptUsed
        case "behind": kind = .behind(height: try c.decode(Int.self, forKey: .height))
        case "retimed": kind = .retimed(height: try c.decode(Int.self, forKey: .height), time: try c.decode(UInt32.self, forKey: .time))
        case "height": kind = .height(try c.decode(Int64.self, forKey: .height))
        default: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown Electrum fault kind \(name)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(method, forKey: .method)
        try c.encode(kind.name, forKey: .kind)
        try c.encodeIfPresent(times, forKey: .times)
        switch kind {
        case .drop(let after): try c.encode(after, forKey: .after)
        case .stall(let seconds): try c.encode(seconds, forKey: .seconds)
        case .shortHeader(let bytes), .longLine(let bytes): try c.encode(bytes, forKey: .bytes)
        case .longNotification(let bytes, let inMethod, let count):
            try c.encode(bytes, forKey: .bytes)
            try c.encode(inMethod ? "method" : "params", forKey: .field)
            try c.encode(count, forKey: .count)
        case .notification(let line, let count):
            try c.encode(line, forKey: .line)
            try c.encode(count, forKey: .count)
        case .forgedPayment(let address, let value, let outputs, let height, let padding):
            try c.encode(address, forKey: .address)
            try c.encode(value, forKey: .value)
            try c.encode(outputs, forKey: .outputs)
            try c.encode(height, forKey: .height)
            try c.encode(padding, forKey: .padding)
        case .behind(let height): try c.encode(height, forKey: .height)
        case .retimed(let height, let time):
            try c.encode(height, forKey: .height)
            try c.encode(time, forKey: .time)
        case .height(let height): try c.encode(height, forKey: .height)
        case .error(let code, let message):
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
        case .version(let version): try c.encode(version, forKey: .version)
        case .wrongTransaction, .wrongStatus, .notJSONRPC, .historyTooLarge, .garbage, .reversedBatch, .repeatedEntry, .everyScriptUsed: break
        }
    }
}

/// What an Electrum fault does to a call's answer.
public enum ElectrumFaultKind: Sendable, Hashable {
    /// The connection closes: before this call is answered (`after` 0), or once `after` answers,
    /// this call's first, have been written (a batch's reply then holds only those).
    case drop(after: Int = 0)
    /// No answer for `seconds` (the connection reads nothing meanwhile), then the answer.
    case stall(seconds: Double)
    /// `blockchain.transaction.get` answers the bytes of another transaction (one output's value
    /// changed), whose hash is not the txid asked for.
    case wrongTransaction
    /// Headers (`blockchain.block.header`, `.headers`, `blockchain.headers.subscribe`) of this
    /// many bytes instead of 80.
    case shortHeader(bytes: Int = 79)
    /// `blockchain.scripthash.subscribe` answers a status that does not hash its history.
    case wrongStatus
    /// The answer is JSON without `jsonrpc`, `result` or `error`: `{"id": ..., "answer": ...}`.
    case notJSONRPC
    /// A JSON-RPC error object with this code and message.
    case error(code: Int, message: String)
    /// One reply line of `bytes` bytes (a string result padded to that length).
    case longLine(bytes: Int = 2_000_000)
    /// ElectrumX's error for a history beyond its limit: code 10001, "history too large".
    case historyTooLarge
    /// `server.version` answers this protocol version.
    case version(String)
    /// A line that is not JSON at all.
    case garbage
    /// The batch holding the call is answered in reverse order (each answer keeps its id).
    case reversedBatch
    /// A script's history (`blockchain.scripthash.get_history`) lists its first transaction
    /// twice, the copy one block later, and its status (`blockchain.scripthash.subscribe`)
    /// hashes that list: a server that lies consistently, which the status check cannot catch.
    case repeatedEntry
    /// Before the answer, `count` `blockchain.scripthash.subscribe` notifications whose status
    /// (or, `inMethod`, whose method name) is a string of `bytes` bytes.
    case longNotification(bytes: Int = 100_000, inMethod: Bool = false, count: Int = 1)
    /// Before the answer, `line` (a JSON text, a notification as a server might word it) sent
    /// `count` times as it is.
    case notification(line: String, count: Int = 1)
    /// A transaction paying `outputs` outputs of `value` sats to `address` (plus an OP_RETURN
    /// output of `padding` bytes) that no block or mempool holds, in the address's history at
    /// `height` (0: the mempool) and served raw; its Merkle branch is that of a tree of the
    /// block's transactions with it appended: a proof of another root than the header's.
    case forgedPayment(address: String, value: Int64 = 500_000_000, outputs: Int = 1, height: Int = 0, padding: Int = 0)
    /// A script without history lists block 1's coinbase (with its real proof): every address
    /// looks used.
    case everyScriptUsed
    /// The server's chain ends at `height`: its tip, its headers and its histories stop there.
    case behind(height: Int)
    /// Block `height` is dated `time`, and it and every block after it are mined again so that
    /// the chain still links: a consistent lie about a block's time.
    case retimed(height: Int, time: UInt32)
    /// Every confirmed entry of a history is listed at this height.
    case height(Int64)

    /// The kind's name in JSON and in the request log.
    public var name: String {
        switch self {
        case .drop: "drop"
        case .stall: "stall"
        case .wrongTransaction: "wrong_transaction"
        case .shortHeader: "short_header"
        case .wrongStatus: "wrong_status"
        case .notJSONRPC: "not_jsonrpc"
        case .error: "error"
        case .longLine: "long_line"
        case .historyTooLarge: "history_too_large"
        case .version: "version"
        case .garbage: "garbage"
        case .reversedBatch: "reversed_batch"
        case .repeatedEntry: "repeated_entry"
        case .longNotification: "long_notification"
        case .notification: "notification"
        case .forgedPayment: "forged_payment"
        case .everyScriptUsed: "every_script_used"
        case .behind: "behind"
        case .retimed: "retimed"
        case .height: "height"
        }
    }
}
