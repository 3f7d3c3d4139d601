import WalletWatchBitcoin
import WalletWatchCore

extension HDWalletSync {
    /// What a pass learnt about one address.
    struct Fetched: Sendable {
        /// The address with its new activity (and first use, and sync time when its history was read).
        var address: WalletAddress
        /// The part of its history that was read.
        var transactions: [EsploraTransaction]
        var requests: Int
    }

    /// Esplora's key for the address's script.
    func scripthash(_ address: WalletAddress) -> String {
        Script.esploraScripthash(Hex.decode(address.script) ?? [])
    }

    /// Asks about one address: its whole history when `whole` (its stats follow from it), else
    /// its stats and, when they moved or it has mempool transactions, its newest transactions
    /// down to one already stored.
    func fetch(_ entry: WalletAddress, whole: Bool, known: Set<String>, now: Instant) async throws -> Fetched {
        var entry = entry
        let hash = scripthash(entry)
        if whole {
            let transactions: [EsploraTransaction]
            var requests: Int
            (transactions, requests) = try await history(hash, stopAtKnown: nil)
            guard let activity = Self.activity(of: entry.address, in: transactions) else {
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
            entry.firstUsedAt = entry.firstUsedAt ?? Self.firstUse(transactions, now: now)
            return Fetched(address: entry, transactions: transactions, requests: requests)
        }
        let summary = try await client.summary(ofScripthash: hash)
        let activity = AddressActivity(
            chainTxCount: summary.chain.transactionCount, funded: summary.chain.fundedSum, spent: summary.chain.spentSum,
            mempoolTxCount: summary.mempool.transactionCount, mempoolDelta: summary.mempool.delta)
        let moved = activity != entry.activity || activity.mempoolTxCount > 0
        entry.activity = activity
        guard moved else { return Fetched(address: entry, transactions: [], requests: 1) }
        let (transactions, requests) = try await history(hash, stopAtKnown: known)
        entry.syncedAt = now
        entry.firstUsedAt = entry.firstUsedAt ?? Self.firstUse(transactions, now: now)
        return Fetched(address: entry, transactions: transactions, requests: 1 + requests)
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
    func history(_ scripthash: String, stopAtKnown known: Set<String>?) async throws -> (transactions: [EsploraTransaction], requests: Int) {
        var transactions: [EsploraTransaction] = []
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

    /// An address's activity from its whole history; nil when its sums leave Int64 (no real
    /// history comes near: each transaction moves at most 21 million BTC).
    static func activity(of address: String, in transactions: [EsploraTransaction]) -> AddressActivity? {
        var activity = AddressActivity()
        for transaction in transactions {
            // Each side of one transaction is at most 21 million BTC (checked when decoded).
            let received = transaction.outputs.reduce(Int64(0)) { $0 + ($1.address == address ? $1.value : 0) }
            let sent = transaction.inputs.reduce(Int64(0)) { $0 + ($1.address == address ? $1.value : 0) }
            if transaction.confirmed {
                let funded = activity.funded.addingReportingOverflow(received)
                let spent = activity.spent.addingReportingOverflow(sent)
                guard !funded.overflow, !spent.overflow else { return nil }
                activity.chainTxCount += 1
                activity.funded = funded.partialValue
                activity.spent = spent.partialValue
            } else {
                let delta = activity.mempoolDelta.addingReportingOverflow(received - sent)
                guard !delta.overflow else { return nil }
                activity.mempoolTxCount += 1
                activity.mempoolDelta = delta.partialValue
            }
        }
        return activity
    }

    /// When an address was first used: its oldest confirmed transaction's block time, or now
    /// for one seen in the mempool only; nil when it has no transaction.
    static func firstUse(_ transactions: [EsploraTransaction], now: Instant) -> Instant? {
        if let oldest = transactions.compactMap(\.blockTime).min() { return Instant(millisecondsSinceEpoch: oldest * 1000) }
        return transactions.isEmpty ? nil : now
    }

    /// What a pass stores: every watched address, every transaction once with its amount for the
    /// whole wallet, the receive chain's receipts and the balance.
    func outcome(window: Window, fetched: [String: Fetched], stored: [WalletAddress], requests: Int, tipHeight: Int64?,
                 now: Instant) throws -> Outcome {
        let addresses = window.addresses
        let walletAddresses = Set(addresses.map(\.address))
        let receiving = Set(addresses.filter { $0.chain == .receive }.map(\.address))
        var byTxid: [String: EsploraTransaction] = [:]
        var order: [String] = []
        for address in addresses {
            for transaction in fetched[address.address]?.transactions ?? [] {
                if let seen = byTxid[transaction.txid] {
                    // The same transaction read twice in one pass: the confirmed reading is the later.
                    if transaction.confirmed && !seen.confirmed { byTxid[transaction.txid] = transaction }
                } else {
                    byTxid[transaction.txid] = transaction
                    order.append(transaction.txid)
                }
            }
        }
        var receipts: [WalletReceipt] = []
        for txid in order {
            var paid: [String: Int64] = [:]
            for output in byTxid[txid]!.outputs {
                if let address = output.address, receiving.contains(address) { paid[address, default: 0] += output.value }
            }
            receipts += paid.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { WalletReceipt(txid: txid, address: $0.key, amount: $0.value) }
        }
        let previous = Dictionary(stored.map { ($0.address, $0) }) { first, _ in first }
        let changed = Set(addresses.filter { previous[$0.address] != $0 }.map(\.address))
        let balance = try balance(addresses.map(\.activity))
        return Outcome(
            balance: balance, transactions: order.map { byTxid[$0]!.observed(for: walletAddresses) }, addresses: addresses,
            changed: changed, receipts: receipts, requests: requests, tipHeight: tipHeight,
            replacedStoredAddresses: window.replacedStored)
    }
}
