/// Reorgs: the last blocks replaced by others, as the test node's `test_reorg` does it.
extension EVMChain {
    /// Replaces the last `depth` blocks: back to the block below them, their transactions (except
    /// those in `drop`, and those of a sender whose earlier transaction was dropped: their nonce is
    /// now too high) back in the mempool ahead of any queued, then `blocks` new blocks (default
    /// `depth`) mined on top, the first taking the mempool. The new blocks at the old heights have
    /// other hashes. Refused below the finalized block unless `force`.
    mutating func reorg(depth: Int, blocks count: Int?, drop: Set<EVMHash>, force: Bool) throws -> EVMReorgReply {
        let old = tip
        guard depth >= 1, depth <= old else { throw SimulatorError(.invalid, "a reorg needs 1 to \(old) blocks, not \(depth)") }
        let newBlocks = count ?? depth
        guard newBlocks >= 1 else { throw SimulatorError(.invalid, "a reorg mines at least one block") }
        let fork = old - depth
        guard fork >= finalized || force else {
            throw SimulatorError(.conflict, "a reorg of \(depth) blocks would replace finalized block \(finalized) (finality depth \(finalityDepth)); pass force to do it anyway")
        }
        let removed = removeBlocks(above: fork)
        reorgs += 1
        let queued = mempool
        mempool = []
        var dropped: [EVMHash] = []
        var nextNonce: [EVMAddress: Int] = [:]
        for transaction in removed.flatMap(\.transactions).map(\.transaction) + queued {
            let expected = nextNonce[transaction.from] ?? nonce(of: transaction.from, at: fork)
            if drop.contains(transaction.hash) || transaction.nonce != expected {
                dropped.append(transaction.hash)
                continue
            }
            mempool.append(transaction)
            nextNonce[transaction.from] = expected + 1
        }
        var mined: [EVMHash] = []
        for _ in 0..<newBlocks {
            let (block, lost) = mineBlock()
            mined.append(block.hash)
            dropped += lost
        }
        return EVMReorgReply(
            forkBlock: fork, replaced: Dictionary(uniqueKeysWithValues: removed.map { (String($0.number), $0.hash.hex) }),
            mined: mined.map(\.hex), dropped: dropped.map(\.hex), pending: mempool.map(\.hash.hex), tip: tip)
    }
}

/// What a reorg did: the block it forked from, the hashes it replaced (by height), the new blocks,
/// the transactions dropped and those left pending.
public struct EVMReorgReply: Sendable, Codable, Hashable {
    public var forkBlock: Int
    public var replaced: [String: String]
    public var mined: [String]
    public var dropped: [String]
    public var pending: [String]
    public var tip: Int

    private enum CodingKeys: String, CodingKey { case replaced, mined, dropped, pending, tip, forkBlock = "fork_block" }
}
