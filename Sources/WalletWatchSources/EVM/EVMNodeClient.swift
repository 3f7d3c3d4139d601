import WalletWatchCore

/// The Ethereum JSON-RPC questions an `evm` source asks its node, decoded into values; every
/// answer is checked (hex quantities, types, the contracts of logs) and a bad one fails the call
/// with one line naming the method and the field.
struct EVMNodeClient: Sendable {
    let rpc: JSONRPCClient

    /// `eth_chainId`.
    func chainID() async throws -> Int64 {
        let result = try await rpc.call("eth_chainId")
        return try rpc.decoded("eth_chainId", result) { try $0.smallQuantity() }
    }

    /// `eth_blockNumber`.
    func blockNumber() async throws -> Int64 {
        let result = try await rpc.call("eth_blockNumber")
        return try rpc.decoded("eth_blockNumber", result) { try $0.smallQuantity() }
    }

    /// A block's number, hash and timestamp, from a decoded `eth_getBlockByNumber` result.
    func header(_ method: String, _ result: JSONValue) throws -> EVMBlockHeader {
        try rpc.decoded(method, result) { value in
            guard !value.isNull else { throw value.fail("the node does not know this block") }
            return EVMBlockHeader(number: try value["number"].smallQuantity(), hash: try value["hash"].hash(),
                                  timestamp: try value["timestamp"].smallQuantity())
        }
    }

    /// The headers of `numbers`, in one batch.
    func headers(_ numbers: [Int64]) async throws -> [Int64: EVMBlockHeader] {
        guard !numbers.isEmpty else { return [:] }
        let results = try await rpc.batch(numbers.map { JSONRPCCall("eth_getBlockByNumber", [.string(EVMValue.hex($0)), .bool(false)]) })
        var headers: [Int64: EVMBlockHeader] = [:]
        for (number, result) in zip(numbers, results) {
            let header = try header("eth_getBlockByNumber", result)
            guard header.number == number else {
                throw rpc.failure("eth_getBlockByNumber", "asked block \(number), the node answered block \(header.number)")
            }
            headers[number] = header
        }
        return headers
    }

    /// The receipts of `hashes`, in one batch; a transaction the node does not know (dropped, or
    /// in a block a reorganisation removed) is left out.
    func receipts(_ hashes: [String]) async throws -> [String: EVMReceipt] {
        guard !hashes.isEmpty else { return [:] }
        let results = try await rpc.batch(hashes.map { JSONRPCCall("eth_getTransactionReceipt", [.string($0)]) })
        var receipts: [String: EVMReceipt] = [:]
        for (hash, result) in zip(hashes, results) {
            guard result != .null else { continue }
            let receipt = try rpc.decoded("eth_getTransactionReceipt", result) { try Self.receipt($0) }
            guard receipt.hash == hash else {
                throw rpc.failure("eth_getTransactionReceipt", "asked the receipt of \(hash), the node answered that of \(receipt.hash)")
            }
            receipts[hash] = receipt
        }
        return receipts
    }

    static func receipt(_ value: EVMValue) throws -> EVMReceipt {
        let gasUsed = try value["gasUsed"].quantity()
        let price = try value["effectiveGasPrice"].quantity()
        let l1Fee = value["l1Fee"].isNull ? 0 : try value["l1Fee"].quantity()
        let (product, overflow) = gasUsed.multipliedReportingOverflow(by: price)
        guard !overflow, product <= Int128.max - l1Fee else { throw value["gasUsed"].fail("gasUsed x effectiveGasPrice is absurdly large") }
        let status = try value["status"].quantity()
        guard status == 0 || status == 1 else { throw value["status"].fail("expected 0x0 or 0x1, got \(status)") }
        return EVMReceipt(
            hash: try value["transactionHash"].hash(), blockNumber: try value["blockNumber"].smallQuantity(),
            blockHash: try value["blockHash"].hash(), from: try value["from"].address(), to: try value["to"].optionalAddress(),
            succeeded: status == 1, fee: product + l1Fee)
    }

    /// The transactions of `hashes` (sender, recipient, value), in one batch; unknown ones left out.
    func transactions(_ hashes: [String]) async throws -> [String: EVMTransactionRecord] {
        guard !hashes.isEmpty else { return [:] }
        let results = try await rpc.batch(hashes.map { JSONRPCCall("eth_getTransactionByHash", [.string($0)]) })
        var records: [String: EVMTransactionRecord] = [:]
        for (hash, result) in zip(hashes, results) where result != .null {
            let record = try rpc.decoded("eth_getTransactionByHash", result) { try Self.transaction($0) }
            guard let record else { continue }  // still in the mempool
            records[hash] = record
        }
        return records
    }

    /// A transaction object; nil while it waits in the mempool (no block number yet).
    static func transaction(_ value: EVMValue) throws -> EVMTransactionRecord? {
        guard !value["blockNumber"].isNull else { return nil }
        return EVMTransactionRecord(
            hash: try value["hash"].hash(), blockNumber: try value["blockNumber"].smallQuantity(), from: try value["from"].address(),
            to: try value["to"].optionalAddress(), value: try value["value"].quantity())
    }

    /// The Transfer events of `tokens` from or to `addresses` in `blocks`, asked first for the
    /// whole range at once. Public providers cap a range (Alchemy at 2,000 blocks, many nodes
    /// at 5,000 or 10,000) or the logs in an answer (Infura at 10,000), each with its own error:
    /// any JSON-RPC error for a range of more than one block halves the range asked, and the
    /// rest of the history goes in windows of that size, so that the first pass over a token
    /// held for years costs about one call per window the provider allows. The error of a
    /// one-block window fails the pass: then the range was not the problem.
    func transferLogs(tokens: [EVMAddress], addresses: [EVMAddress], blocks: ClosedRange<Int64>) async throws -> EVMHistoryFindings {
        var findings = EVMHistoryFindings()
        guard !tokens.isEmpty, !addresses.isEmpty else { return findings }
        var start = blocks.lowerBound
        var width = Int64(blocks.count)
        while start <= blocks.upperBound {
            let window = start...min(blocks.upperBound, start + width - 1)
            do {
                findings.merge(try await transferLogs(tokens: tokens, addresses: addresses, window: window))
                start = window.upperBound + 1
            } catch let error as SourceError where error.cause == .refused && window.count > 1 {
                width = Int64(window.count) / 2
            }
        }
        return findings
    }

    /// The Transfer events of `tokens` from or to `addresses` in `window`: two `eth_getLogs`
    /// (the address as the first indexed argument, then as the second), in one batch. A log of
    /// another contract, of another event, or naming neither address is refused: the node did not
    /// answer what was asked.
    private func transferLogs(tokens: [EVMAddress], addresses: [EVMAddress], window blocks: ClosedRange<Int64>) async throws -> EVMHistoryFindings {
        var findings = EVMHistoryFindings()
        let words = JSONValue.array(addresses.map { .string($0.word) })
        let range: [JSONValue.Member] = [
            .init("fromBlock", .string(EVMValue.hex(blocks.lowerBound))), .init("toBlock", .string(EVMValue.hex(blocks.upperBound))),
            .init("address", .array(tokens.map { .string($0.lowercased) })),
        ]
        let calls = [
            JSONRPCCall("eth_getLogs", [.object(range + [.init("topics", .array([.string(ERC20.transferTopic), words]))])]),
            JSONRPCCall("eth_getLogs", [.object(range + [.init("topics", .array([.string(ERC20.transferTopic), .null, words]))])]),
        ]
        let results = try await rpc.batch(calls)
        let asked = Set(tokens)
        let watched = Set(addresses)
        for result in results {
            let logs = try rpc.decoded("eth_getLogs", result) { value in
                try value.array().compactMap { log -> (EVMEventKey, EVMTokenTransfer, Int64?)? in
                    let contract = try log["address"].address()
                    guard asked.contains(contract) else { throw log["address"].fail("a log of contract \(contract.lowercased), which was not asked") }
                    let topics = try log["topics"].array()
                    guard topics.count == 3, try topics[0].hash() == ERC20.transferTopic else {
                        throw log["topics"].fail("not an ERC-20 Transfer event, which was asked")
                    }
                    guard let from = EVMAddress(topic: try topics[1].hash()), let to = EVMAddress(topic: try topics[2].hash()) else {
                        throw log["topics"].fail("a Transfer topic is not an address")
                    }
                    guard watched.contains(from) || watched.contains(to) else {
                        throw log["topics"].fail("a Transfer between \(from.lowercased) and \(to.lowercased), neither of which was asked")
                    }
                    let data = try log["data"].data()
                    guard let amount = EVMValue.word(data) else { throw log["data"].fail("the amount is not one 32-byte word below 2^127") }
                    let hash = try log["transactionHash"].hash()
                    let block = try log["blockNumber"].smallQuantity()
                    let index = try log["logIndex"].smallQuantity()
                    let time = log["blockTimestamp"].isNull ? nil : try log["blockTimestamp"].smallQuantity()
                    if case .bool(true) = log["removed"].value { return nil }
                    return (EVMEventKey(hash: hash, position: "log:\(index)"),
                            EVMTokenTransfer(hash: hash, blockNumber: block, contract: contract, from: from, to: to, amount: amount), time)
                }
            }
            for (key, transfer, time) in logs {
                findings.tokenTransfers[key] = transfer
                if let time { findings.blockTimes[transfer.blockNumber] = time }
            }
        }
        return findings
    }
}

/// A block's number, hash and time.
struct EVMBlockHeader: Sendable, Equatable {
    let number: Int64
    let hash: String
    /// Seconds since 1970.
    let timestamp: Int64
}
