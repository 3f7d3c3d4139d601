import WalletWatchCore

extension EVMNodeClient {
    /// Erigon caps a search page at 25 transactions (`max allowed page size: 25`).
    static let otterscanPageSize = 25

    /// The transactions of `address` after block `after`, from Erigon's `ots_` namespace:
    /// `ots_searchTransactionsAfter` forward a page at a time (Erigon never splits a block,
    /// answers newest first, and sets `firstPage` once the page reaches the tip), the receipts it
    /// carries, then `ots_getInternalOperations` of each successful transaction in one batch.
    /// Erigon's index does not find a token's recipient: token transfers come from the logs.
    func otterscanHistory(of address: EVMAddress, after: Int64, tip: Int64, tokens: Set<EVMAddress>) async throws -> (EVMHistoryFindings, [String: EVMReceipt]) {
        var findings = EVMHistoryFindings()
        var receipts: [String: EVMReceipt] = [:]
        var cursor = after
        while true {
            let result: JSONValue
            do {
                result = try await rpc.call("ots_searchTransactionsAfter", [.string(address.lowercased), .int(Int128(cursor)), .int(Int128(Self.otterscanPageSize))])
            } catch let error as SourceError where error.problem.contains("-32601") {
                // geth and reth have no ots_ namespace: say what to do instead.
                throw SourceError(source: error.source, request: error.request,
                                  problem: error.problem + "; history = \"otterscan\" needs an Erigon node (geth and reth lack ots_): use \"none\" with this node, or \"etherscan\"",
                                  cause: error.cause)
            }
            let page = try rpc.decoded("ots_searchTransactionsAfter", result) { value in
                let transactions = try value["txs"].array().map { try Self.transaction($0) }
                let pageReceipts = try value["receipts"].array().map { receipt in
                    (try Self.receipt(receipt), receipt["timestamp"].isNull ? nil : try Self.plainOrHex(receipt["timestamp"]),
                     try Self.unlistedTransfers(receipt, watched: address, tokens: tokens))
                }
                guard case .bool(let reachedTip) = value["firstPage"].value else { throw value["firstPage"].fail("expected a boolean") }
                return (transactions, pageReceipts, reachedTip)
            }
            var highest = cursor
            for transaction in page.0 {
                guard let transaction else { continue }
                guard transaction.blockNumber > cursor else {
                    throw rpc.failure("ots_searchTransactionsAfter", "a transaction of block \(transaction.blockNumber), which is not after \(cursor)")
                }
                findings.transactions[transaction.hash] = transaction
                highest = max(highest, transaction.blockNumber)
            }
            for (receipt, time, unlisted) in page.1 {
                receipts[receipt.hash] = receipt
                if let time { findings.blockTimes[receipt.blockNumber] = time }
                findings.unlistedTokens.formUnion(unlisted)
            }
            if page.2 || highest == cursor || highest >= tip { break }
            cursor = highest
        }
        let successful = findings.transactions.keys.filter { receipts[$0]?.succeeded != false }.sorted()
        if !successful.isEmpty {
            let results = try await rpc.batch(successful.map { JSONRPCCall("ots_getInternalOperations", [.string($0)]) })
            for (hash, result) in zip(successful, results) {
                let operations = try rpc.decoded("ots_getInternalOperations", result) { value in
                    try value.array().map { operation in
                        (try operation["from"].address(), try operation["to"].address(), try operation["value"].quantity())
                    }
                }
                for (index, (from, to, value)) in operations.enumerated() where value > 0 {
                    findings.internals[EVMEventKey(hash: hash, position: "ots:\(index)")] = EVMInternalTransfer(
                        hash: hash, blockNumber: findings.transactions[hash]!.blockNumber, from: from, to: to, value: value)
                }
            }
        }
        return (findings, receipts)
    }

    /// Erigon writes a receipt's `timestamp` as a plain JSON number; a hex string is taken too.
    private static func plainOrHex(_ value: EVMValue) throws -> Int64 {
        if case .number(let text) = value.value, let number = Int64(text), number >= 0 { return number }
        return try value.smallQuantity()
    }

    /// Contracts of Transfer logs in a receipt that move tokens to or from `watched` and are not watched.
    private static func unlistedTransfers(_ receipt: EVMValue, watched: EVMAddress, tokens: Set<EVMAddress>) throws -> Set<EVMAddress> {
        guard !receipt["logs"].isNull else { return [] }
        var found: Set<EVMAddress> = []
        for log in try receipt["logs"].array() {
            let topics = try log["topics"].array()
            guard topics.count == 3, try topics[0].hash() == ERC20.transferTopic else { continue }
            let contract = try log["address"].address()
            let word = watched.word
            guard !tokens.contains(contract), try topics[1].hash() == word || topics[2].hash() == word else { continue }
            found.insert(contract)
        }
        return found
    }
}
