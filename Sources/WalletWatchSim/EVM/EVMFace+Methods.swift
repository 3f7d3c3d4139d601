/// The `eth_`, `net_` and `web3_` methods of the EVM face, answered from the chain.
extension EVMFace {
    static let clientVersion = "walletwatch-sim/1.0 (simulated EVM chain)"
    static let gwei: Int128 = 1_000_000_000

    /// `method`'s result; throws its JSON-RPC error.
    func result(of method: String, _ params: EVMParams, faults: EVMCallFaults) throws -> JSONValue {
        switch method {
        case "web3_clientVersion": return .string(Self.clientVersion)
        case "net_version": return .string(String(faults.chainID ?? chain.chainID))
        case "eth_chainId": return EVMJSON.quantity(faults.chainID ?? chain.chainID)
        case "eth_syncing": return .bool(false)
        case "eth_blockNumber": return EVMJSON.quantity(chain.tip)
        case "eth_gasPrice": return EVMJSON.quantity(chain.block(chain.tip).nextBaseFee + Self.gwei)
        case "eth_maxPriorityFeePerGas": return EVMJSON.quantity(Self.gwei)
        case "eth_getBalance":
            return EVMJSON.quantity(chain.balance(of: try params.address(0), at: try stateBlock(params[1], argument: 1)))
        case "eth_getTransactionCount":
            let address = try params.address(0)
            if params[1] == .string("pending") { return EVMJSON.quantity(chain.pendingNonce(of: address)) }
            return EVMJSON.quantity(chain.nonce(of: address, at: try stateBlock(params[1], argument: 1)))
        case "eth_getCode":
            let address = try params.address(0), number = try stateBlock(params[1], argument: 1)
            guard let contract = chain.contracts[address], contract.exists(at: number) else { return .string("0x") }
            return .string(contract.code)
        case "eth_call": return try call(params)
        case "eth_estimateGas": return try estimateGas(params)
        case "eth_getBlockByNumber":
            guard let number = try blockNumber(try params.required(0), argument: 0) else { return .null }
            return EVMJSON.block(chain.block(number), full: try params.bool(1, default: false), chainID: chain.chainID)
        case "eth_getBlockByHash":
            guard let block = chain.block(hash: try params.hash(0)) else { return .null }
            return EVMJSON.block(block, full: try params.bool(1, default: false), chainID: chain.chainID)
        case "eth_getTransactionByHash":
            let hash = try params.hash(0)
            if let mined = chain.mined(hash) { return EVMJSON.transaction(mined, in: chain.block(mined.blockNumber), chainID: chain.chainID) }
            return chain.waiting(hash).map { EVMJSON.pendingTransaction($0, chainID: chain.chainID) } ?? .null
        case "eth_getTransactionReceipt":
            guard let mined = chain.mined(try params.hash(0)) else { return .null }
            return EVMJSON.receipt(mined, in: chain.block(mined.blockNumber))
        case "eth_getBlockReceipts":
            guard let number = try blockNumber(try params.required(0), argument: 0) else { return .null }
            let block = chain.block(number)
            return .array(block.transactions.map { EVMJSON.receipt($0, in: block) })
        case "eth_getLogs": return try logs(params, faults: faults)
        case "ots_getApiLevel": return .int(8)
        case "ots_hasCode":
            let address = try params.address(0), number = try stateBlock(params[1], argument: 1)
            return .bool(chain.contracts[address]?.exists(at: number) ?? false)
        case "ots_getInternalOperations": return try internalOperations(params, faults: faults)
        case "ots_getTransactionError":
            let hash = try params.hash(0)
            guard let mined = chain.mined(hash) else { throw EVMRPCError(-32000, "transaction \(hash) not found") }
            return .string(EVMHex.data(mined.revertData))
        case "ots_searchTransactionsAfter": return try search(params, forward: true, faults: faults)
        case "ots_searchTransactionsBefore": return try search(params, forward: false, faults: faults)
        default: throw EVMRPCError.methodNotFound(method)
        }
    }

    // MARK: blocks

    /// A block parameter (a tag, a `0x` number, or an EIP-1898 object) as a block number; nil
    /// for a number above the tip.
    func blockNumber(_ value: JSONValue, argument index: Int) throws -> Int? {
        if case .object = value {
            if case .string(let text)? = value["blockHash"] {
                guard let hash = EVMHash(text) else { throw EVMRPCError.invalidArgument(index, "invalid block hash \(text)") }
                guard let block = chain.block(hash: hash) else { throw EVMRPCError(-32000, "header for hash \(text) not found") }
                return block.number
            }
            guard let number = value["blockNumber"] else {
                throw EVMRPCError.invalidArgument(index, "a block object needs blockNumber or blockHash")
            }
            return try blockNumber(number, argument: index)
        }
        guard case .string(let text) = value else { throw EVMRPCError.invalidArgument(index, "json: cannot unmarshal non-string into Go value of type BlockNumber") }
        switch text {
        case "latest", "pending": return chain.tip
        case "earliest": return 0
        case "safe": return chain.safe
        case "finalized": return chain.finalized
        default:
            switch EVMHex.parseQuantity(text) {
            case .success(let number): return number > Int128(chain.tip) ? nil : Int(number)
            case .failure(let why): throw EVMRPCError.invalidArgument(index, why.message)
            }
        }
    }

    /// The block whose state a call reads (`latest` when the param is absent); above the tip is
    /// geth's `header not found`.
    func stateBlock(_ value: JSONValue?, argument index: Int) throws -> Int {
        guard let number = try blockNumber(value ?? .string("latest"), argument: index) else { throw EVMRPCError.headerNotFound }
        return number
    }

    // MARK: calls

    /// `eth_call` to the simulator's contracts: a token answers `balanceOf`, `decimals`,
    /// `symbol`, `name` and `totalSupply`, a forwarder `forward` (nothing) and
    /// `forward_and_revert` (geth's `3 execution reverted: REASON` with the revert data), and
    /// both revert (geth's `-32000 execution reverted`, no data, as a vyper contract without a
    /// fallback does) for anything else; an address without code answers `0x`.
    private func call(_ params: EVMParams) throws -> JSONValue {
        let request = try params.required(0)
        guard case .object = request else { throw EVMRPCError.invalidArgument(0, "json: cannot unmarshal non-object into Go value of type ethapi.TransactionArgs") }
        let number = try stateBlock(params[1], argument: 1)
        guard let toValue = request["to"], toValue != .null else { return .string("0x") }
        let to = try EVMParams.address(toValue, argument: 0)
        let input = try (request["input"] ?? request["data"]).map { try EVMParams.data($0, argument: 0) } ?? []
        let value = try request["value"].map { try EVMParams.quantity($0, argument: 0) } ?? 0
        guard let contract = chain.contracts[to], contract.exists(at: number) else { return .string("0x") }
        let selector = EVMHex.data(input.prefix(4)).dropFirst(2)
        let reverted = EVMRPCError(-32000, "execution reverted")
        guard case .token(let symbol, let name, let decimals, _) = contract.kind else {
            switch String(selector) {
            case EVMSelector.forward: return .string("0x")
            case EVMSelector.forwardAndRevert:
                let reason = "forwarded, then reverted"
                throw EVMRPCError(3, "execution reverted: \(reason)", data: EVMHex.data(EVMChain.revertReason(reason)))
            default: throw reverted
            }
        }
        guard value == 0 else { throw reverted }
        switch String(selector) {
        case EVMSelector.balanceOf:
            guard input.count >= 36, let holder = EVMAddress(word: EVMHex.data(input[4..<36])) else { throw reverted }
            return .string(EVMHex.word(chain.tokenBalance(to, of: holder, at: number)))
        case EVMSelector.decimals: return .string(EVMHex.word(Int128(decimals)))
        case EVMSelector.symbol: return .string(EVMHex.abiString(symbol))
        case EVMSelector.name: return .string(EVMHex.abiString(name))
        case EVMSelector.totalSupply: return .string(EVMHex.word(chain.totalSupply(of: to, at: number)))
        default: throw reverted
        }
    }

    /// `eth_estimateGas`: what the simulator's default gas for such a transaction is.
    private func estimateGas(_ params: EVMParams) throws -> JSONValue {
        let request = try params.required(0)
        guard case .object = request else { throw EVMRPCError.invalidArgument(0, "json: cannot unmarshal non-object into Go value of type ethapi.TransactionArgs") }
        guard let toValue = request["to"], toValue != .null else { return EVMJSON.quantity(455_485) }
        let to = try EVMParams.address(toValue, argument: 0)
        guard let contract = chain.contracts[to], contract.exists(at: chain.tip) else { return EVMJSON.quantity(21_000) }
        return EVMJSON.quantity(contract.isToken ? 50_890 : 30_913)
    }

    // MARK: logs

    /// `eth_getLogs`: `fromBlock`/`toBlock` (default `latest`) or `blockHash`; `address` one or a
    /// list; `topics` by position, each null (any), a topic, or a list of topics (any of them).
    private func logs(_ params: EVMParams, faults: EVMCallFaults) throws -> JSONValue {
        let filter = try params.required(0)
        guard case .object = filter else { throw EVMRPCError.invalidArgument(0, "json: cannot unmarshal non-object into Go value of type filters.FilterCriteria") }
        let first: Int, last: Int
        if let hashValue = filter["blockHash"], hashValue != .null {
            guard filter["fromBlock"] == nil && filter["toBlock"] == nil else {
                throw EVMRPCError.invalidArgument(0, "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other")
            }
            guard case .string(let text) = hashValue, let hash = EVMHash(text) else { throw EVMRPCError.invalidArgument(0, "invalid blockHash") }
            guard let block = chain.block(hash: hash) else { throw EVMRPCError(-32000, "unknown block") }
            (first, last) = (block.number, block.number)
        } else {
            guard let from = try blockNumber(filter["fromBlock"] ?? .string("latest"), argument: 0) else { return .array([]) }
            let to = try blockNumber(filter["toBlock"] ?? .string("latest"), argument: 0) ?? chain.tip
            guard from <= to else { throw EVMRPCError.invalidParams("invalid block range params") }
            (first, last) = (from, to)
        }
        if let limit = faults.logRangeLimit, last - first + 1 > limit {
            throw EVMRPCError(-32000, "exceed maximum block range: \(limit)")
        }
        var addresses: Set<EVMAddress>?
        switch filter["address"] {
        case nil, .null?: addresses = nil
        case .string?: addresses = [try EVMParams.address(filter["address"]!, argument: 0)]
        case .array(let values)?: addresses = values.isEmpty ? nil : Set(try values.map { try EVMParams.address($0, argument: 0) })
        default: throw EVMRPCError.invalidArgument(0, "invalid address")
        }
        var topics: [Set<String>?] = []
        if case .array(let positions)? = filter["topics"] {
            for position in positions {
                switch position {
                case .null: topics.append(nil)
                case .string(let text):
                    guard let topic = EVMHash(text) else { throw EVMRPCError.invalidArgument(0, "invalid topic \(text)") }
                    topics.append([topic.hex])
                case .array(let options):
                    let set = Set(try options.compactMap { option -> String? in
                        if option == .null { return nil }
                        guard case .string(let text) = option, let topic = EVMHash(text) else { throw EVMRPCError.invalidArgument(0, "invalid topic") }
                        return topic.hex
                    })
                    topics.append(set.isEmpty ? nil : set)
                default: throw EVMRPCError.invalidArgument(0, "invalid topic")
                }
            }
        }
        var found: [JSONValue] = []
        for number in first...last {
            let block = chain.block(number)
            for mined in block.transactions where !faults.omitted.contains(mined.hash) {
                for log in mined.logs {
                    if let addresses, !addresses.contains(log.address) { continue }
                    guard topics.count <= log.topics.count else { continue }
                    guard topics.enumerated().allSatisfy({ $0.element?.contains(log.topics[$0.offset]) ?? true }) else { continue }
                    found.append(EVMJSON.log(log, of: mined, in: block))
                }
            }
        }
        if faults.foreignLog { found.append(foreignLog(in: chain.block(last), topics: topics)) }
        return .array(found)
    }

    /// The `foreign_log` fault's log: a `Transfer` matching the filter's topics, logged by a
    /// contract that was not asked for, in the range's last block.
    private func foreignLog(in block: EVMBlock, topics: [Set<String>?]) -> JSONValue {
        var logTopics = [EVMSelector.transferTopic, EVMAddress.zero.word, EVMAddress.zero.word]
        for (position, options) in topics.enumerated() where position < 3 {
            if let chosen = options?.sorted().first { logTopics[position] = chosen }
        }
        let log = EVMLog(address: Self.foreignContract, topics: logTopics, data: EVMHex.word(1), logIndex: block.logCount)
        let carrier = block.transactions.last ?? chain.blocks.lazy.flatMap(\.transactions).last
        guard let carrier else {
            return EVMJSON.object([("address", .string(Self.foreignContract.hex)), ("topics", .array(logTopics.map { .string($0) })),
                                   ("data", .string(log.data)), ("blockNumber", EVMJSON.quantity(block.number)), ("removed", .bool(false))])
        }
        return EVMJSON.log(log, of: carrier, in: block)
    }

    /// The contract the `foreign_log` fault's log comes from.
    static let foreignContract = EVMAddress("0x000000000000000000000000000000000000dead")!
}
