/// Erigon's Otterscan namespace (`ots_`, API level 8), following the rules of Erigon's
/// `turbo/jsonrpc/otterscan_search_v3.go` as the test node's `evmrpc.py` reads them.
extension EVMFace {
    /// Erigon's default `--ots.search.max.pagesize`.
    static let otsMaxPageSize = 25

    /// `ots_getInternalOperations(txHash)`: the value transfers and creations contracts made,
    /// in execution order, reverted ones included (a client checks the receipt's status):
    /// `[{"type": 0|2|3, "from", "to", "value"}]`.
    func internalOperations(_ params: EVMParams, faults: EVMCallFaults) throws -> JSONValue {
        let hash = try params.hash(0)
        guard let mined = chain.mined(hash) else { throw EVMRPCError(-32000, "transaction \(hash) not found") }
        guard !faults.omitted.contains(hash) else { return .array([]) }
        return .array(mined.internalOperations.map {
            EVMJSON.object([("type", .int(Int64($0.kind))), ("from", .string($0.from.hex)), ("to", .string($0.to.hex)),
                            ("value", EVMJSON.quantity($0.value))])
        })
    }

    /// `ots_searchTransactionsAfter/Before(address, blockNumber, pageSize)`: the transactions
    /// whose call tree has the address as a sender or a callee (a token's recipient is not
    /// found), from the block after (or before) `blockNumber` (0: from genesis, or before: from
    /// the tip), whole blocks only: a page ends at the first block boundary at or after
    /// `pageSize` matches. Either direction answers newest first, with each receipt's block
    /// `timestamp` as a plain JSON number. After: `firstPage` when the search reached the tip,
    /// `lastPage` when it started at block 0; before: the reverse.
    func search(_ params: EVMParams, forward: Bool, faults: EVMCallFaults) throws -> JSONValue {
        let address = try params.address(0)
        let start = try params.integer(1, "block number")
        let pageSize = try params.integer(2, "page size")
        guard pageSize >= 1 else { throw EVMRPCError.invalidArgument(2, "page size must be a positive integer") }
        guard pageSize <= Self.otsMaxPageSize else { throw EVMRPCError(-32000, "max allowed page size: \(Self.otsMaxPageSize)") }
        let latest = chain.tip
        let numbers: [Int]
        if forward {
            let first = start > 0 ? start + 1 : 0
            numbers = first > latest ? [] : Array(first...latest)
        } else {
            let first = start > 0 ? start - 1 : latest
            numbers = first > latest ? [] : Array(stride(from: first, through: 0, by: -1))
        }
        var matches: [EVMMinedTransaction] = []
        var hasMore = false
        for number in numbers {
            let inBlock = chain.block(number).transactions.filter { $0.touched.contains(address) && !faults.omitted.contains($0.hash) }
            guard !inBlock.isEmpty else { continue }
            if matches.count >= pageSize {
                hasMore = true
                break
            }
            matches += forward ? inBlock : inBlock.reversed()
        }
        if forward { matches.reverse() }
        var txs: [JSONValue] = [], receipts: [JSONValue] = []
        for mined in matches {
            let block = chain.block(mined.blockNumber)
            txs.append(EVMJSON.transaction(mined, in: block, chainID: chain.chainID))
            guard case .object(let members) = EVMJSON.receipt(mined, in: block) else { continue }
            receipts.append(.object(members + [.init("timestamp", .int(block.timestamp))]))
        }
        let (firstPage, lastPage) = forward ? (!hasMore, start == 0) : (start == 0, !hasMore)
        return EVMJSON.object([("txs", .array(txs)), ("receipts", .array(receipts)), ("firstPage", .bool(firstPage)), ("lastPage", .bool(lastPage))])
    }
}
