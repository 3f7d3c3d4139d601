/// The explorer APIs over the chain: Etherscan's API V2 (`/etherscan/v2/api`, `chainid`
/// required) and Blockscout's Etherscan-compatible RPC API (`/blockscout/api`), `module=account`
/// with `action=balance|txlist|txlistinternal|tokentx`, as the test node's `etherscan.py` serves
/// them from Etherscan's and Blockscout's documentation (see its docstring and the fixtures'
/// PROVENANCE.md, evm section): every value a string; `{"status": "1", "message": "OK",
/// "result": [...]}`; an empty list `status "0"` with `No transactions found` (Blockscout: `No
/// internal transactions found`, `No token transfers found`) and `result []`; errors HTTP 200
/// with `status "0"`: Etherscan's `{"message": "NOTOK", "result": "<text>"}`, Blockscout's text
/// in `message` and `result` null. Rows oldest first (`sort=desc`: newest first), `page` and
/// `offset` cut them; Etherscan refuses page x offset above 10,000.
extension EVMFace {
    /// Which explorer's dialect a request speaks.
    enum Dialect: String, Sendable {
        case etherscan, blockscout
    }

    static let maxWindow = 10_000
    static let chainIDError = "Missing or unsupported chainid parameter (required for v2 api), please see https://api.etherscan.io/v2/chainlist for the list of supported chainids"
    static let freeTierChainError = "Free API access is not supported for this chain. Please upgrade your api plan for full chain coverage. https://etherscan.io/apis"

    /// The answer to an explorer request with query parameters `query`.
    mutating func answerExplorer(_ dialect: Dialect, query: [String: String], now: SimTime) -> JSONValue {
        let request = beginRequest()
        let action = "\(query["module"] ?? "").\(query["action"] ?? "")"
        let name = "\(dialect.rawValue).\(query["action"] ?? "")"
        let active = faults.takeAll(for: name) { $0.applies(to: name) }
        var recorded = query
        if recorded["apikey"] != nil { recorded["apikey"] = "<redacted>" }
        record(EVMRequestRecord(
            face: dialect.rawValue, request: request, batch: nil, method: action,
            params: .object(recorded.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) }), time: now, faults: active.map(\.name)))
        let faults = EVMCallFaults(active)
        if dialect == .etherscan {
            if let limited = rateLimited(faults) { return Self.notOK(limited) }
            if let key = etherscanAPIKey, query["apikey"] != key { return Self.notOK("Invalid API Key") }
            guard query["chainid"] == String(chain.chainID) else { return Self.notOK(Self.chainIDError) }
            if faults.chainUnsupported { return Self.notOK(Self.freeTierChainError) }
        } else if let limited = rateLimited(faults) {
            return Self.blockscoutError(limited)
        }
        guard query["module"] == "account" else {
            return dialect == .etherscan ? Self.notOK("Error! Missing Or invalid Module name") : Self.blockscoutError("Unknown module")
        }
        let explorer = Explorer(chain: chain, dialect: dialect, query: query, tip: max(0, chain.tip - faults.lagBlocks), omitted: faults.omitted)
        switch query["action"] {
        case "balance": return explorer.balance()
        case "txlist": return explorer.txlist()
        case "txlistinternal": return explorer.txlistinternal()
        case "tokentx": return explorer.tokentx()
        default: return dialect == .etherscan ? Self.notOK("Error! Missing Or invalid Action name") : Self.blockscoutError("Unknown action")
        }
    }

    /// The rate-limit text when a fault refuses this call (a refused call counts, as Etherscan counts it).
    private mutating func rateLimited(_ faults: EVMCallFaults) -> String? {
        if faults.rateLimit { return "Max rate limit reached" }
        guard let limit = faults.callsPerSecond else { return nil }
        let now = ContinuousClock.now
        explorerCalls = explorerCalls.filter { now - $0 < .seconds(1) } + [now]
        return explorerCalls.count > limit ? "Max calls per sec rate limit reached (\(limit)/sec)" : nil
    }

    static func ok(_ result: JSONValue) -> JSONValue {
        EVMJSON.object([("status", .string("1")), ("message", .string("OK")), ("result", result)])
    }

    static func notOK(_ text: String) -> JSONValue {
        EVMJSON.object([("status", .string("0")), ("message", .string("NOTOK")), ("result", .string(text))])
    }

    static func blockscoutError(_ text: String) -> JSONValue {
        EVMJSON.object([("status", .string("0")), ("message", .string(text)), ("result", .null)])
    }
}

/// One explorer request over the chain as the explorer has indexed it (up to `tip`).
private struct Explorer {
    let chain: EVMChain
    let dialect: EVMFace.Dialect
    let query: [String: String]
    let tip: Int
    let omitted: Set<EVMHash>

    private var etherscan: Bool { dialect == .etherscan }

    /// The `address` parameter, or the dialect's error.
    private func address(balance: Bool = false) -> Result<EVMAddress, Refusal> {
        guard let text = query["address"], !text.isEmpty else {
            return .failure(Refusal(etherscan ? EVMFace.notOK("Error! Invalid address format")
                                        : EVMFace.blockscoutError("Query parameter 'address' is required")))
        }
        guard let address = EVMAddress(text) else {
            return .failure(Refusal(etherscan ? EVMFace.notOK("Error! Invalid address format")
                                        : EVMFace.blockscoutError(balance ? "Invalid address hash" : "Invalid address format")))
        }
        return .success(address)
    }

    private struct Refusal: Error {
        let answer: JSONValue
        init(_ answer: JSONValue) { self.answer = answer }
    }

    private struct Window {
        let first: Int, last: Int, page: Int, offset: Int, descending: Bool
    }

    /// `startblock`, `endblock` (a number or `latest`), `page`, `offset` and `sort`.
    private func window() -> Result<Window, Refusal> {
        func number(_ name: String, _ fallback: Int) -> Int? {
            guard let text = query[name], !text.isEmpty else { return fallback }
            if name == "endblock", text == "latest" { return tip }
            guard text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(text) ?? Int.max
        }
        for name in ["startblock", "endblock", "page", "offset"] where number(name, 0) == nil {
            return .failure(Refusal(etherscan ? EVMFace.notOK("Error! Invalid \(name) parameter (not documented)")
                                        : EVMFace.blockscoutError("Invalid \(name) format (not documented)")))
        }
        let page = max(number("page", 1) ?? 1, 1), offset = max(number("offset", EVMFace.maxWindow) ?? 1, 1)
        if etherscan, page.multipliedReportingOverflow(by: offset).overflow || page * offset > EVMFace.maxWindow {
            return .failure(Refusal(EVMFace.notOK("Result window is too large, PageNo x Offset size must be less than or equal to 10000")))
        }
        return .success(Window(first: number("startblock", 0) ?? 0, last: min(number("endblock", tip) ?? tip, tip), page: page, offset: offset,
                               descending: query["sort"] == "desc"))
    }

    /// The rows of one page, or the empty answer.
    private func listing(_ rows: [JSONValue], _ window: Window, empty: String) -> JSONValue {
        let ordered = window.descending ? rows.reversed() : rows
        let (start, overflow) = (window.page - 1).multipliedReportingOverflow(by: window.offset)
        let page = overflow || start >= ordered.count ? [] : Array(ordered[start..<min(ordered.count, start + window.offset)])
        guard !page.isEmpty else {
            return EVMJSON.object([("status", .string("0")), ("message", .string(empty)), ("result", .array([]))])
        }
        return EVMFace.ok(.array(page))
    }

    /// The mined transactions of the window the explorer shows (not the omitted ones).
    private func transactions(_ window: Window) -> [EVMMinedTransaction] {
        guard window.first <= window.last else { return [] }
        return chain.transactions(in: window.first...window.last).filter { !omitted.contains($0.hash) }
    }

    private func confirmations(_ mined: EVMMinedTransaction) -> String { String(tip - mined.blockNumber + 1) }

    // MARK: actions

    /// `action=balance` with `tag` (`latest` by default, or a block number).
    func balance() -> JSONValue {
        let address: EVMAddress
        switch self.address(balance: true) {
        case .success(let value): address = value
        case .failure(let refusal): return refusal.answer
        }
        let tag = query["tag"] ?? "latest"
        let number: Int
        switch tag {
        case "latest", "pending": number = tip
        case "earliest": number = 0
        default:
            let parsed = tag.hasPrefix("0x") ? Int(tag.dropFirst(2), radix: 16) : Int(tag)
            guard let parsed, parsed >= 0 else { return EVMFace.notOK("Error! Invalid tag (not documented)") }
            guard parsed <= tip else {
                return etherscan ? EVMFace.notOK("Error! Block number already pass") : EVMFace.blockscoutError("Invalid block (not documented)")
            }
            number = parsed
        }
        return EVMFace.ok(.string(String(chain.balance(of: address, at: number))))
    }

    /// `action=txlist`: the transactions from, to or creating the address.
    func txlist() -> JSONValue {
        let address: EVMAddress, window: Window
        switch (self.address(), self.window()) {
        case (.failure(let refusal), _), (_, .failure(let refusal)): return refusal.answer
        case (.success(let a), .success(let w)): (address, window) = (a, w)
        }
        var rows: [JSONValue] = []
        for mined in transactions(window) {
            let transaction = mined.transaction
            guard transaction.from == address || transaction.to == address || mined.created == address else { continue }
            let block = chain.block(mined.blockNumber)
            let fields: [String: String] = [
                "blockNumber": String(block.number), "timeStamp": String(block.timestamp), "hash": mined.hash.hex, "nonce": String(transaction.nonce),
                "blockHash": block.hash.hex, "transactionIndex": String(mined.index), "from": transaction.from.hex, "to": transaction.to?.hex ?? "",
                "value": String(transaction.value), "gas": String(transaction.gasLimit), "gasPrice": String(mined.effectiveGasPrice),
                "isError": mined.status == 1 ? "0" : "1", "txreceipt_status": String(mined.status), "input": EVMHex.data(transaction.input),
                "contractAddress": mined.created?.hex ?? "", "cumulativeGasUsed": String(mined.cumulativeGasUsed),
                "gasUsed": String(mined.gasUsed), "confirmations": confirmations(mined),
                "methodId": transaction.input.count >= 4 ? EVMHex.data(transaction.input.prefix(4)) : "0x",
                "functionName": EVMSelector.functionName(transaction.input),
            ]
            let keys = etherscan
                ? ["blockNumber", "blockHash", "timeStamp", "hash", "nonce", "transactionIndex", "from", "to", "value", "gas", "gasPrice", "input",
                   "methodId", "functionName", "contractAddress", "cumulativeGasUsed", "txreceipt_status", "gasUsed", "confirmations", "isError"]
                : ["blockNumber", "timeStamp", "hash", "nonce", "blockHash", "transactionIndex", "from", "to", "value", "gas", "gasPrice", "isError",
                   "txreceipt_status", "input", "contractAddress", "cumulativeGasUsed", "gasUsed", "confirmations"]
            rows.append(.object(keys.map { .init($0, .string(fields[$0] ?? "")) }))
        }
        return listing(rows, window, empty: "No transactions found")
    }

    /// `action=txlistinternal` by `address` or by `txhash`: the internal operations (those a
    /// revert undid marked `isError` "1"; `errCode` is the frame's own error, none here).
    func txlistinternal() -> JSONValue {
        var address: EVMAddress?
        let hash = query["txhash"].flatMap { $0.isEmpty ? nil : $0.lowercased() }
        if hash == nil {
            switch self.address() {
            case .success(let value): address = value
            case .failure(let refusal): return refusal.answer
            }
        }
        let window: Window
        switch self.window() {
        case .success(let value): window = value
        case .failure(let refusal): return refusal.answer
        }
        var rows: [JSONValue] = []
        for mined in transactions(window) where hash == nil || mined.hash.hex == hash {
            let block = chain.block(mined.blockNumber)
            for (position, operation) in mined.internalOperations.enumerated() {
                if let address, operation.from != address, operation.to != address { continue }
                let create = operation.kind == 2 || operation.kind == 3
                var row: [(String, JSONValue)] = [("blockNumber", .string(String(block.number))), ("timeStamp", .string(String(block.timestamp)))]
                if etherscan { row.append(("hash", .string(mined.hash.hex))) }
                row += [("from", .string(operation.from.hex)), ("to", .string(create ? "" : operation.to.hex)),
                        ("value", .string(String(operation.value))), ("contractAddress", .string(create ? operation.to.hex : ""))]
                if !etherscan { row += [("transactionHash", .string(mined.hash.hex)), ("index", .string(String(position + 1)))] }
                row += [("input", .string("")), ("type", .string(["call", "", "create", "create2"][min(operation.kind, 3)])),
                        ("gas", .string(String(operation.gas))), ("gasUsed", .string(String(operation.gasUsed)))]
                if etherscan { row.append(("traceId", .string(operation.traceAddress.map(String.init).joined(separator: "_")))) }
                row += [("isError", .string(operation.reverted ? "1" : "0")), ("errCode", .string(""))]
                rows.append(EVMJSON.object(row))
            }
        }
        return listing(rows, window, empty: etherscan ? "No transactions found" : "No internal transactions found")
    }

    /// `action=tokentx` (optionally one `contractaddress`): the ERC-20 `Transfer` logs naming the
    /// address as sender or recipient, with the token's name, symbol and decimals.
    func tokentx() -> JSONValue {
        let address: EVMAddress, window: Window
        switch (self.address(), self.window()) {
        case (.failure(let refusal), _), (_, .failure(let refusal)): return refusal.answer
        case (.success(let a), .success(let w)): (address, window) = (a, w)
        }
        var contract: EVMAddress?
        if let text = query["contractaddress"], !text.isEmpty {
            guard let parsed = EVMAddress(text) else {
                return etherscan ? EVMFace.notOK("Error! Invalid contract address format (not documented)")
                    : EVMFace.blockscoutError("Invalid contract address format")
            }
            contract = parsed
        }
        var rows: [JSONValue] = []
        for mined in transactions(window) {
            let block = chain.block(mined.blockNumber), transaction = mined.transaction
            for log in mined.logs where log.topics.count == 3 && log.topics[0] == EVMSelector.transferTopic
                && (log.topics[1] == address.word || log.topics[2] == address.word) && (contract == nil || log.address == contract) {
                guard let sender = EVMAddress(word: log.topics[1]), let recipient = EVMAddress(word: log.topics[2]) else { continue }
                var token = ("", "", "")
                if case .token(let symbol, let name, let decimals, _)? = chain.contracts[log.address]?.kind { token = (name, symbol, String(decimals)) }
                var row: [(String, JSONValue)] = [
                    ("blockNumber", .string(String(block.number))), ("timeStamp", .string(String(block.timestamp))), ("hash", .string(mined.hash.hex)),
                    ("nonce", .string(String(transaction.nonce))), ("blockHash", .string(block.hash.hex)), ("from", .string(sender.hex)),
                    ("contractAddress", .string(log.address.hex)),
                ]
                if !etherscan { row.append(("logIndex", .string(String(log.logIndex)))) }
                row += [
                    ("to", .string(recipient.hex)), ("value", .string(String(EVMHex.parseData(log.data).map(Self.uint) ?? 0))),
                    ("tokenName", .string(token.0)), ("tokenSymbol", .string(token.1)), ("tokenDecimal", .string(token.2)),
                    ("transactionIndex", .string(String(mined.index))), ("gas", .string(String(transaction.gasLimit))),
                    ("gasPrice", .string(String(mined.effectiveGasPrice))), ("gasUsed", .string(String(mined.gasUsed))),
                    ("cumulativeGasUsed", .string(String(mined.cumulativeGasUsed))),
                ]
                if etherscan {
                    row += [("input", .string("deprecated")),
                            ("methodId", .string(transaction.input.count >= 4 ? EVMHex.data(transaction.input.prefix(4)) : "0x")),
                            ("functionName", .string(EVMSelector.functionName(transaction.input)))]
                } else {
                    row.append(("input", .string(EVMHex.data(transaction.input))))
                }
                row.append(("confirmations", .string(confirmations(mined))))
                rows.append(EVMJSON.object(row))
            }
        }
        return listing(rows, window, empty: etherscan ? "No transactions found" : "No token transfers found")
    }

    /// A 32-byte big-endian word's value (the simulator's amounts fit 128 bits).
    private static func uint(_ bytes: [UInt8]) -> UInt128 {
        bytes.suffix(16).reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
    }
}
