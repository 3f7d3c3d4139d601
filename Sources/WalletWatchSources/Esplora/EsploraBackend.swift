import WalletWatchBitcoin
import WalletWatchCore

/// An Esplora explorer as a wallet's chain backend (SPEC.md section 15), through its
/// `/scripthash` routes.
///
/// An address read for the first time (or in a full rescan) costs one request for its whole
/// history: its first page answers "used?" and "what?" at once, and the history gives its stats
/// too. A known address costs one request for its stats and, only when they moved (or it has
/// mempool transactions, which must be reported again each pass), the first pages of its
/// history, down to a transaction already stored. At most `concurrency` requests are in flight.
public struct EsploraBackend: ChainBackend {
    let client: EsploraClient
    /// The txids of the wallet's stored confirmed transactions: paging stops at one of them.
    let knownConfirmed: Set<String>
    let concurrency: Int

    /// A backend reading through `client`, knowing the stored confirmed txids.
    public init(client: EsploraClient, knownConfirmed: Set<String>, concurrency: Int) {
        self.client = client
        self.knownConfirmed = knownConfirmed
        self.concurrency = max(1, concurrency)
    }

    public func read(_ entries: [WalletAddress], full: Bool, now: Instant) async throws -> ChainRead {
        let fetched = try await concurrently(entries) { entry in
            try await self.fetch(entry, whole: full || entry.syncedAt == nil, now: now)
        }
        return ChainRead(readings: fetched.map(\.reading), requests: fetched.reduce(0) { $0 + $1.requests })
    }

    public func activities(of entries: [WalletAddress]) async throws -> ChainActivities {
        ChainActivities(activities: try await concurrently(entries) { try await self.activity(of: $0) }, requests: entries.count)
    }

    /// The tip on full passes only: an incremental pass does not pay a request for it.
    public func tip(full: Bool) async throws -> (height: Int64?, requests: Int) {
        full ? (try await client.tipHeight(), 1) : (nil, 0)
    }

    /// Esplora's key for the address's script.
    func scripthash(_ address: WalletAddress) -> String {
        Script.esploraScripthash(Hex.decode(address.script) ?? [])
    }

    /// Reads one address: its whole history when `whole` (its stats follow from it), else its
    /// stats and, when they moved or it has mempool transactions, its newest transactions down
    /// to one already stored.
    func fetch(_ entry: WalletAddress, whole: Bool, now: Instant) async throws -> (reading: ScriptReading, requests: Int) {
        var entry = entry
        let hash = scripthash(entry)
        if whole {
            let (transactions, historyRequests) = try await history(hash, stopAtKnown: nil)
            var requests = historyRequests
            guard let activity = WalletSync.activity(of: entry.address, in: transactions) else {
                throw client.requester.failure("/scripthash/\(hash)/txs", "the history's sums go beyond any amount of bitcoin")
            }
            entry.activity = activity
            // Esplora lists at most 50 mempool transactions: past that only the stats count them all.
            if transactions.filter({ !$0.confirmed }).count >= EsploraClient.mempoolLimit {
                let summary = try await client.summary(ofScripthash: hash)
                requests += 1
                entry.activity.mempoolTxCount = summary.mempool.transactionCount
                entry.activity.mempoolDelta = summary.mempool.delta
            }
            entry.syncedAt = now
            entry.firstUsedAt = entry.firstUsedAt ?? WalletSync.firstUse(transactions, now: now)
            return (ScriptReading(address: entry, transactions: transactions), requests)
        }
        let activity = try await self.activity(of: entry)
        let moved = activity != entry.activity || activity.mempoolTxCount > 0
        entry.activity = activity
        guard moved else { return (ScriptReading(address: entry, transactions: []), 1) }
        let (transactions, requests) = try await history(hash, stopAtKnown: knownConfirmed)
        entry.syncedAt = now
        entry.firstUsedAt = entry.firstUsedAt ?? WalletSync.firstUse(transactions, now: now)
        return (ScriptReading(address: entry, transactions: transactions), 1 + requests)
    }

    /// Only the stats of an address.
    func activity(of address: WalletAddress) async throws -> AddressActivity {
        let summary = try await client.summary(ofScripthash: scripthash(address))
        return AddressActivity(
            chainTxCount: summary.chain.transactionCount, funded: summary.chain.fundedSum, spent: summary.chain.spentSum,
            mempoolTxCount: summary.mempool.transactionCount, mempoolDelta: summary.mempool.delta)
    }

    /// The history of a script, newest first, in pages of 25 confirmed transactions: all of it,
    /// or down to the first page that holds a confirmed transaction in `stopAtKnown` (stored by
    /// an earlier pass, which stored everything older too).
    func history(_ scripthash: String, stopAtKnown known: Set<String>?) async throws -> (transactions: [ChainTransaction], requests: Int) {
        var transactions: [ChainTransaction] = []
        var requests = 0
        var lastSeen: String?
        var seen = Set<String>()
        while true {
            let path = "/scripthash/\(scripthash)/txs" + (lastSeen.map { "/chain/\($0)" } ?? "")
            let page = try await client.transactions(ofScripthash: scripthash, after: lastSeen)
            requests += 1
            let confirmed = page.filter(\.confirmed)
            // An explorer that answers a page it already gave would be paged through forever.
            guard confirmed.isEmpty || confirmed.contains(where: { !seen.contains($0.txid) }) else {
                throw client.requester.failure(path, "the page after \(lastSeen ?? "the first") repeats transactions already listed")
            }
            seen.formUnion(confirmed.map(\.txid))
            transactions += page
            if let last = confirmed.last { lastSeen = last.txid }
            if confirmed.count < EsploraClient.pageSize { break }
            if let known, confirmed.contains(where: { known.contains($0.txid) }) { break }
        }
        return (transactions, requests)
    }

    /// `body` for each of `items`, at most `concurrency` at once; the results in `items`' order.
    func concurrently<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ body: @escaping @Sendable (Item) async throws -> Result
    ) async throws -> [Result] {
        try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: items.count)
            var next = 0
            while next < min(concurrency, items.count) {
                let (index, item) = (next, items[next])
                group.addTask { (index, try await body(item)) }
                next += 1
            }
            while let (index, result) = try await group.next() {
                results[index] = result
                if next < items.count {
                    let (index, item) = (next, items[next])
                    group.addTask { (index, try await body(item)) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }
}
