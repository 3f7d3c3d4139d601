import WalletWatchBitcoin
import WalletWatchCore

/// The headers an electrum pass dates and proves its confirmed transactions with, each one
/// verified, never taken on the server's word (SPEC.md section 21; Electrum checks the same):
///
/// - Below the chain's last checkpoint, a header is fetched with the rest of its difficulty
///   period (up to 2,016 headers, one call) and must lead, block by block, to the checkpoint
///   that ends the period. Only the headers a pass needs are kept.
/// - Past it (on testnet4, signet and regtest, which have no checkpoints, from the genesis
///   block), the chain is followed header by header from the last checkpoint to the server's
///   tip and kept, so the first pass that needs a header past it pays for the whole run once
///   (Bitcoin: every block after 747,935, Electrum 4.3.4's last checkpoint): each header linked to the one before,
///   its work done, its bits the chain's (Bitcoin: exactly the retarget Core computes), the
///   last one the tip the server announced. A later pass fetches only the blocks since; a
///   stored chain the server no longer extends is a reorg, followed back to where the two
///   agree (at most 2,016 blocks down; deeper is refused).
/// - Every header is dated at most two hours past the clock.
///
/// A `full` pass (`ingest --full`) asks for every header again, from the checkpoints on: a
/// header once stored is not kept for good on the word of the pass that stored it.
struct HeaderChainSync {
    let client: ElectrumClient
    let chain: ChainParameters
    let store: ElectrumStore
    /// The latest block time accepted (Unix seconds): the clock plus two hours.
    let latestTime: Int64
    let full: Bool

    /// Bitcoin Core's `MAX_FUTURE_BLOCK_TIME`.
    static let futureLimit: Int64 = 2 * 60 * 60

    /// Headers a call asks for at most (ElectrumX's `MAX_CHUNK_SIZE`; one difficulty period).
    static let run = Int(Checkpoints.period)

    /// The verified header at each of `heights` (each at most the tip's), adding what to keep
    /// (and what a reorg took out) to `records`.
    func headers(at heights: Set<Int64>, tip: (height: Int64, header: BlockHeader), records: inout ChainRecords) async throws -> [Int64: BlockHeader] {
        if let above = heights.first(where: { $0 > tip.height || $0 < 1 }) {
            throw client.connection.problem("a history lists a transaction in block \(above), but the server's chain ends at block \(tip.height)",
                                            method: "blockchain.scripthash.get_history")
        }
        let checkpointed = chain.checkpoints.lastHeight ?? 0
        var found = try await belowCheckpoints(heights.filter { $0 <= checkpointed }, records: &records)
        let above = heights.filter { $0 > checkpointed }
        // A full pass asks again for the chain it keeps past the checkpoints, even when none of
        // this pass's transactions is there.
        let keptPastCheckpoints = full && above.isEmpty ? try await store.topHeader(chain.base.height) != nil : false
        if !above.isEmpty || keptPastCheckpoints {
            found.merge(try await pastCheckpoints(above, tip: tip, records: &records)) { _, new in new }
        }
        return found
    }

    // MARK: - Below the checkpoints

    /// Each of `heights` (at most the last checkpoint's) from the store, or fetched with the rest
    /// of its period and led to the period's checkpoint.
    private func belowCheckpoints(_ heights: Set<Int64>, records: inout ChainRecords) async throws -> [Int64: BlockHeader] {
        guard !heights.isEmpty else { return [:] }
        var found = full ? [:] : try await store.headers(Array(heights))
        let missing = heights.filter { found[$0] == nil }
        let periods = Dictionary(grouping: missing) { $0 / Checkpoints.period }
        let runs = periods.keys.sorted().map { period -> (start: Int64, count: Int) in
            let start = periods[period]!.min()!
            return (start, Int((period + 1) * Checkpoints.period - start))
        }
        for (run, headers) in zip(runs, try await client.headerRuns(runs)) {
            let end = run.start + Int64(run.count) - 1
            try await check(headers, from: run.start, after: headers[0].previousHash)
            guard let checkpoint = chain.checkpoints.hash(endingPeriodOf: end), headers.last?.hashHex == checkpoint else {
                throw client.connection.problem(
                    "the headers from block \(run.start) to \(end) do not lead to \(chain.name)'s checkpoint at block \(end): they are not the chain's",
                    method: "blockchain.block.headers")
            }
            for height in periods[run.start / Checkpoints.period]! {
                found[height] = headers[Int(height - run.start)]
                records.headers[height] = headers[Int(height - run.start)]
            }
        }
        return found
    }

    // MARK: - Past the checkpoints

    /// The chain from the last checkpoint to the server's tip, stored or fetched; the headers at
    /// `heights` from it.
    private func pastCheckpoints(_ heights: Set<Int64>, tip: (height: Int64, header: BlockHeader), records: inout ChainRecords) async throws -> [Int64: BlockHeader] {
        let base = chain.base
        guard tip.height > base.height else { return [:] }
        var fetched: [Int64: BlockHeader] = [:]
        var top = full ? nil : try await store.topHeader(base.height)
        if let known = top, known.height > tip.height {
            // The server's chain is shorter than the one stored: the blocks above its tip go,
            // and the rest is compared at its tip.
            records.headersInvalidFrom = tip.height + 1
            top = try await store.headers([tip.height])[tip.height].map { (tip.height, $0) }
        }
        if let top {
            if top.height == tip.height {
                if top.header.hash != tip.header.hash { fetched = try await reorganised(below: top.height, tip: tip, records: &records) }
            } else {
                let headers = try await fetch(from: top.height + 1, through: tip.height)
                if headers[0].previousHash == top.header.hash {
                    try await check(headers, from: top.height + 1, after: top.header.hash, known: [top.height: top.header])
                    fetched = Self.numbered(headers, from: top.height + 1)
                } else {
                    fetched = try await reorganised(below: top.height, tip: tip, records: &records)
                }
            }
        } else {
            let headers = try await fetch(from: base.height + 1, through: tip.height)
            try await check(headers, from: base.height + 1, after: Self.internalOrder(base.hash))
            fetched = Self.numbered(headers, from: base.height + 1)
            // A full pass replaces the stored chain past the checkpoints.
            if full { records.headersInvalidFrom = base.height + 1 }
        }
        if let last = fetched[tip.height], last.hash != tip.header.hash {
            throw client.connection.problem("the server's headers end in block \(last.hashHex), not in the tip \(tip.header.hashHex) it announced",
                                            method: "blockchain.block.headers")
        }
        records.headers.merge(fetched) { _, new in new }
        var found = fetched.filter { heights.contains($0.key) }
        let stored = heights.filter { found[$0] == nil }
        if !stored.isEmpty {
            found.merge(try await store.headers(Array(stored))) { new, _ in new }
        }
        if let missing = heights.filter({ found[$0] == nil }).min() {
            throw client.connection.problem("no verified header for block \(missing)", method: "blockchain.block.headers")
        }
        return found
    }

    /// After a reorg at or below `height`: the headers from where the server's chain and the
    /// stored one part, to the tip. They must join a stored header (or the checkpoint) at most
    /// one difficulty period down, else the pass is refused; the stored ones from the fork up
    /// are to be forgotten.
    private func reorganised(below height: Int64, tip: (height: Int64, header: BlockHeader), records: inout ChainRecords) async throws -> [Int64: BlockHeader] {
        let base = chain.base
        let highest = min(height, tip.height)
        let start = max(base.height + 1, highest - Int64(Self.run) + 1)
        let headers = try await fetch(from: start, through: tip.height)
        let stored = try await store.headers(Array((start - 1)...highest))
        let joins = start - 1 == base.height ? Self.internalOrder(base.hash) : stored[start - 1]?.hash
        guard let joins, headers[0].previousHash == joins else {
            throw client.connection.problem(
                "the server's chain parts from the one stored more than \(Self.run) blocks below block \(highest), or does not join \(chain.name)'s at all: refused",
                method: "blockchain.block.headers")
        }
        try await check(headers, from: start, after: joins, known: stored)
        let fork = headers.indices.first { stored[start + Int64($0)]?.hash != headers[$0].hash }.map { start + Int64($0) } ?? tip.height + 1
        records.headersInvalidFrom = min(records.headersInvalidFrom ?? fork, fork)
        return Self.numbered(Array(headers[Int(fork - start)...]), from: fork)
    }

    /// Headers `from` through `through` (inclusive), in calls of at most a period.
    private func fetch(from start: Int64, through end: Int64) async throws -> [BlockHeader] {
        guard start <= end else { return [] }
        let runs = stride(from: start, through: end, by: Self.run).map { ($0, Int(min(Int64(Self.run), end - $0 + 1))) }
        return try await client.headerRuns(runs).flatMap { $0 }
    }

    /// `headers` from `height` on, after the block whose hash is `previous`, verified against
    /// the chain's rules; the headers before them that a retarget reads come from `known` or
    /// the store.
    private func check(_ headers: [BlockHeader], from height: Int64, after previous: [UInt8], known: [Int64: BlockHeader] = [:]) async throws {
        var lookup = known
        for (offset, header) in headers.enumerated() { lookup[height + Int64(offset)] = header }
        if chain.difficulty == .retargets, !headers.isEmpty {
            let end = height + Int64(headers.count) - 1
            let wanted = (height / Checkpoints.period...end / Checkpoints.period).flatMap { period -> [Int64] in
                guard period > 0, chain.knownBits(at: period * Checkpoints.period) == nil else { return [] }
                return [(period - 1) * Checkpoints.period, period * Checkpoints.period - 1].filter { lookup[$0] == nil }
            }
            if !wanted.isEmpty { lookup.merge(try await store.headers(wanted)) { kept, _ in kept } }
        }
        var missing: Int64?
        do {
            try chain.verify(headers, from: height, after: previous, latestTime: latestTime) { at in
                if let bits = chain.knownBits(at: at) { return bits }
                guard chain.difficulty == .retargets else { return nil }
                let period = at / Checkpoints.period
                guard let first = lookup[(period - 1) * Checkpoints.period], let last = lookup[period * Checkpoints.period - 1] else {
                    missing = missing ?? at
                    return nil
                }
                return chain.retargetedBits(first: first, last: last)
            }
        } catch {
            throw client.connection.problem("\(error)", method: "blockchain.block.headers")
        }
        if let missing {
            throw client.connection.problem("block \(missing)'s difficulty cannot be checked: the headers of the period before it are not stored",
                                            method: "blockchain.block.headers")
        }
    }

    private static func numbered(_ headers: [BlockHeader], from height: Int64) -> [Int64: BlockHeader] {
        Dictionary(uniqueKeysWithValues: headers.enumerated().map { (height + Int64($0.offset), $0.element) })
    }

    /// A hash as displayed, in internal byte order.
    static func internalOrder(_ hash: String) -> [UInt8] {
        Array((Hex.decode(hash) ?? []).reversed())
    }
}
