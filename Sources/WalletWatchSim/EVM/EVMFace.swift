import Foundation

/// The EVM face's state and its JSON-RPC front end: the chain, the EVM faults, the request log.
/// Held by ``SimulatorState``, so one call is answered at a time, each against one state of the
/// chain (as the test node holds a lock around its chain).
///
/// JSON-RPC 2.0 over HTTP POST as geth serves it: a single request or a batch (a JSON array,
/// answered as an array in the same order; an empty one is the error `-32600 empty batch`; more
/// than 1,000 calls `-32600 batch too large`), a request without `id` (a notification) answered
/// with nothing, errors as `{"code", "message"[, "data"]}`: `-32700` parse error, `-32600` invalid
/// request, `-32601` a method that does not exist, `-32602` bad params, `-32000` for what the
/// chain refuses (`header not found`, `execution reverted`).
struct EVMFace: Sendable {
    var chain: EVMChain
    var faults = FaultList<EVMFault>()
    private(set) var log: [EVMRequestRecord] = []
    /// HTTP requests answered since start or the last reset of the log.
    private(set) var requests = 0
    /// When the explorers answered their last calls (the `calls_per_second` fault counts them).
    var explorerCalls: [ContinuousClock.Instant] = []
    /// When set, Etherscan's dialect refuses requests without this `apikey`.
    let etherscanAPIKey: String?

    /// geth's default limit on the calls of one batch.
    static let batchLimit = 1_000

    init(scenario: EVMScenario, referenceTime: SimTime) throws {
        chain = try EVMChain(scenario: scenario, referenceTime: referenceTime)
        etherscanAPIKey = scenario.etherscanAPIKey
    }

    // MARK: the request log

    /// Counts an HTTP request to the face; returns its number.
    mutating func beginRequest() -> Int {
        requests += 1
        return requests
    }

    mutating func record(_ record: EVMRequestRecord) {
        if log.count >= SimulatorState.logLimit { log.removeFirst(log.count / 10) }
        log.append(record)
    }

    mutating func resetLog() {
        log.removeAll()
        requests = 0
    }

    // MARK: JSON-RPC

    /// The answer to a POSTed JSON-RPC body; nil when there is nothing to answer (notifications only).
    mutating func answerRPC(_ body: [UInt8], now: SimTime) -> JSONValue? {
        let request = beginRequest()
        guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
            return Self.errorReply(id: .null, EVMRPCError(-32700, "parse error"))
        }
        guard case .array(let calls) = message else { return answer(message, request: request, batch: nil, now: now) }
        guard !calls.isEmpty else { return Self.errorReply(id: .null, EVMRPCError(-32600, "empty batch")) }
        guard calls.count <= Self.batchLimit else { return Self.errorReply(id: .null, EVMRPCError(-32600, "batch too large")) }
        let replies = calls.compactMap { answer($0, request: request, batch: calls.count, now: now) }
        return replies.isEmpty ? nil : .array(replies)
    }

    /// One call's reply; nil for a notification.
    private mutating func answer(_ call: JSONValue, request: Int, batch: Int?, now: SimTime) -> JSONValue? {
        guard case .object(let members) = call else { return Self.errorReply(id: .null, EVMRPCError(-32600, "invalid request")) }
        let id = call["id"] ?? .null
        let isNotification = !members.contains { $0.key == "id" }
        guard case .string(let method)? = call["method"], call["jsonrpc"] == nil || call["jsonrpc"] == .string("2.0") else {
            return Self.errorReply(id: id, EVMRPCError(-32600, "invalid request"))
        }
        let active = faults.takeAll(for: method) { $0.applies(to: method) }
        record(EVMRequestRecord(face: "rpc", request: request, batch: batch, method: method, params: call["params"], time: now,
                                faults: active.map(\.name)))
        let reply: JSONValue
        do {
            let callFaults = EVMCallFaults(active)
            if let error = callFaults.rpcError { throw error }
            if callFaults.otsUnavailable { throw EVMRPCError.methodNotFound(method) }
            let params: [JSONValue]
            switch call["params"] {
            case nil, .null?: params = []
            case .array(let values)?: params = values
            case .object?: params = [call["params"]!]
            default: throw EVMRPCError.invalidParams("params must be an array")
            }
            var result = try self.result(of: method, EVMParams(params), faults: callFaults)
            if callFaults.nonHexQuantity { result = Self.decimalQuantities(result) }
            if callFaults.wrongType { result = Self.wrongType(result) }
            reply = .object([.init("jsonrpc", .string("2.0")), .init("id", id), .init("result", result)])
        } catch let error as EVMRPCError {
            reply = Self.errorReply(id: id, error)
        } catch {
            reply = Self.errorReply(id: id, EVMRPCError(-32603, "internal error: \(error)"))
        }
        return isNotification ? nil : reply
    }

    static func errorReply(id: JSONValue, _ error: EVMRPCError) -> JSONValue {
        var body: [JSONValue.Member] = [.init("code", .int(Int64(error.code))), .init("message", .string(error.message))]
        if let data = error.data { body.append(.init("data", .string(data))) }
        return .object([.init("jsonrpc", .string("2.0")), .init("id", id), .init("error", .object(body))])
    }

    // MARK: answer faults

    /// The keys whose values are quantities, which `non_hex_quantity` writes in decimal.
    static let quantityKeys: Set<String> = [
        "number", "blockNumber", "gasUsed", "cumulativeGasUsed", "effectiveGasPrice", "status", "value", "nonce", "timestamp", "gas", "gasPrice",
        "logIndex", "transactionIndex", "baseFeePerGas", "gasLimit", "l1Fee",
    ]

    /// The result with its quantities in decimal: a bare quantity, or the quantity fields of
    /// objects at any depth.
    static func decimalQuantities(_ value: JSONValue, isQuantity: Bool = true) -> JSONValue {
        switch value {
        case .string(let text) where isQuantity && text.hasPrefix("0x") && text.utf8.count <= 34:
            if case .success(let number) = EVMHex.parseQuantity(text) { return .string(String(number)) }
            return value
        case .object(let members):
            return .object(members.map { .init($0.key, decimalQuantities($0.value, isQuantity: quantityKeys.contains($0.key))) })
        case .array(let values):
            return .array(values.map { decimalQuantities($0, isQuantity: false) })
        default:
            return value
        }
    }

    /// A result of the wrong JSON type, as the test node's fault makes it.
    static func wrongType(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .object([.init("value", .string(text))])
        case .object, .array: .string("0x1")
        case .bool: .string("true")
        default: .array([value])
        }
    }
}

/// A JSON-RPC error object: `code`, `message` and optional hex `data`.
struct EVMRPCError: Error, Sendable, Hashable {
    let code: Int
    let message: String
    let data: String?

    init(_ code: Int, _ message: String, data: String? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    static func methodNotFound(_ method: String) -> EVMRPCError { EVMRPCError(-32601, "the method \(method) does not exist/is not available") }
    static func invalidParams(_ message: String) -> EVMRPCError { EVMRPCError(-32602, message) }
    static func invalidArgument(_ index: Int, _ message: String) -> EVMRPCError { EVMRPCError(-32602, "invalid argument \(index): \(message)") }
    static let headerNotFound = EVMRPCError(-32000, "header not found")
}

/// What the EVM faults of one call ask for, gathered.
struct EVMCallFaults: Sendable {
    var chainID: Int?
    var nonHexQuantity = false
    var wrongType = false
    var rpcError: EVMRPCError?
    var foreignLog = false
    var omitted: Set<EVMHash> = []
    var otsUnavailable = false
    var rateLimit = false
    var callsPerSecond: Int?
    var chainUnsupported = false
    var lagBlocks = 0
    var logRangeLimit: Int?

    init(_ kinds: [EVMFaultKind]) {
        for kind in kinds {
            switch kind {
            case .wrongChainID(let id): chainID = id
            case .nonHexQuantity: nonHexQuantity = true
            case .wrongType: wrongType = true
            case .rpcError(let code, let message): rpcError = rpcError ?? EVMRPCError(code, message)
            case .foreignLog: foreignLog = true
            case .omitTransaction(let hash): omitted.insert(hash)
            case .otsUnavailable: otsUnavailable = true
            case .rateLimit: rateLimit = true
            case .callsPerSecond(let limit): callsPerSecond = limit
            case .chainUnsupported: chainUnsupported = true
            case .lagBlocks(let blocks): lagBlocks = max(lagBlocks, blocks)
            case .logRangeLimit(let blocks): logRangeLimit = min(logRangeLimit ?? blocks, blocks)
            }
        }
    }
}
