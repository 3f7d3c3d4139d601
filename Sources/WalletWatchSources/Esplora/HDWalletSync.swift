import WalletWatchBitcoin
import WalletWatchCore

/// One pass over an HD wallet through an Esplora explorer (SPEC.md section 15): from the
/// addresses stored by earlier passes and the transactions already known, it finds what changed
/// and returns what to store. It reads nothing stored itself and writes nothing.
///
/// Each chain is watched from index 0 up to `gap limit` addresses past its highest used one;
/// when an address near the end gets used, the window grows and the new addresses are asked
/// about in the same pass. An address asked about for the first time (or in a full rescan)
/// costs one request for its whole history (its first page answers "used?" and "what?" at once,
/// and the history gives its stats too). A known address costs one request for its stats, and
/// only when they moved (or it has mempool transactions, which must be reported again each pass)
/// the first pages of its history, down to a transaction already stored. At most `concurrency`
/// requests are in flight.
public struct HDWalletSync: Sendable {
    /// What earlier passes stored.
    public struct Known: Sendable {
        /// The wallet's addresses as stored.
        public var addresses: [WalletAddress]
        /// The txids of the wallet's stored confirmed transactions.
        public var confirmedTxids: Set<String>

        /// What earlier passes stored: the addresses and the confirmed txids.
        public init(addresses: [WalletAddress], confirmedTxids: Set<String>) {
            self.addresses = addresses
            self.confirmedTxids = confirmedTxids
        }
    }

    /// What a pass found: everything the store needs.
    public struct Outcome: Sendable {
        /// Confirmed: the sum of the addresses' confirmed balances; untrusted pending: their mempool deltas.
        public var balance: OnchainBalance
        /// Every transaction fetched, once per txid, its amount for the whole wallet.
        public var transactions: [ObservedTransaction]
        /// Every watched address after the pass: receive chain, change chain, listed, each by index.
        public var addresses: [WalletAddress]
        /// The addresses whose stored rows are new or out of date.
        public var changed: Set<String>
        /// What the fetched transactions paid to the receive chain's addresses.
        public var receipts: [WalletReceipt]
        /// HTTP requests made.
        public var requests: Int
        /// The chain tip, fetched on full rescans only.
        public var tipHeight: Int64?
        /// Whether the stored addresses belonged to other keys (the descriptor changed) and were dropped.
        public var replacedStoredAddresses: Bool
    }

    let client: EsploraClient
    let wallet: HDWallet
    /// The fixed addresses watched beside the chains: the config's `addresses` and the
    /// non-ranged descriptors' addresses.
    let listed: [Address]
    let gapLimits: [HDWallet.Chain: Int]
    let concurrency: Int

    /// A sync of `wallet` and the fixed `addresses` (already checked against the wallet's
    /// network) through `client`, with the gap limits of the receive and change chains.
    public init(client: EsploraClient, wallet: HDWallet, addresses: [Address], gapLimit: Int, changeGapLimit: Int, concurrency: Int) {
        self.client = client
        self.wallet = wallet
        var seen = Set<String>()
        listed = (addresses + wallet.listedAddresses).filter { seen.insert($0.description).inserted }
        gapLimits = [.receive: max(1, gapLimit), .change: max(1, changeGapLimit)]
        self.concurrency = max(1, concurrency)
    }

    /// One pass. `full` fetches every address's whole history again (and the chain tip).
    public func sync(known: Known, full: Bool, now: Instant) async throws -> Outcome {
        var window = try Window(wallet: wallet, listed: listed, stored: known.addresses, gapLimits: gapLimits)
        var queue = window.addresses.map(\.address)
        var fetched: [String: Fetched] = [:]
        var requests = 0
        try await withThrowingTaskGroup(of: Fetched.self) { group in
            var next = 0
            var inFlight = 0
            while true {
                while inFlight < concurrency && next < queue.count {
                    let entry = window.entry(queue[next])
                    next += 1
                    inFlight += 1
                    let whole = full || entry.syncedAt == nil
                    group.addTask { try await self.fetch(entry, whole: whole, known: known.confirmedTxids, now: now) }
                }
                guard let result = try await group.next() else { break }
                inFlight -= 1
                requests += result.requests
                fetched[result.address.address] = result
                // A used address near the end of its chain's window grows the window; the new
                // addresses are asked about in this same pass.
                queue += try window.update(result.address)
            }
        }
        var tipHeight: Int64?
        if full {
            tipHeight = try await client.tipHeight()
            requests += 1
        }
        return try outcome(window: window, fetched: fetched, stored: known.addresses, requests: requests, tipHeight: tipHeight, now: now)
    }

    /// The stored addresses' balance, from their stats only (one request an address), for the
    /// balance cache.
    public func balance(of addresses: [WalletAddress]) async throws -> OnchainBalance {
        let activities = try await concurrently(addresses) { address in try await self.activity(of: address) }
        return try balance(activities)
    }

    /// The addresses at `indexes` of `chain` with their stats, derived without being stored (what
    /// `asset addresses --deep` looks at past the window).
    public func probe(chain: HDWallet.Chain, indexes: Range<UInt32>) async throws -> [WalletAddress] {
        guard chain == .receive || wallet.hasChangeChain else { return [] }
        let derived = try wallet.derive(chain: chain, indexes: indexes).map { derived in
            WalletAddress(chain: chain == .receive ? .receive : .change, index: Int(derived.index), script: Hex.encode(derived.scriptPubKey),
                          address: derived.address)
        }
        return try await concurrently(derived) { address in
            var address = address
            address.activity = try await self.activity(of: address)
            return address
        }
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

    /// The wallet's balance from its addresses' activity.
    func balance(_ activities: [AddressActivity]) throws -> OnchainBalance {
        // Each address's figures are at most 21 million BTC (checked when decoded); their sums
        // must be too, which also keeps them from overflowing.
        var confirmed: Int64 = 0
        var mempool: Int64 = 0
        for activity in activities {
            confirmed += activity.balance
            mempool += activity.mempoolDelta
            guard confirmed.magnitude <= BitcoinSupply.maximumSats.magnitude, mempool.magnitude <= BitcoinSupply.maximumSats.magnitude else {
                throw client.requester.failure("/scripthash", "the addresses' stats add up to more than the 21 million BTC that can exist")
            }
        }
        guard confirmed >= 0 else {
            throw client.requester.failure("/scripthash", "the addresses' chain stats add up to a negative balance (\(confirmed) sat)")
        }
        return OnchainBalance(total: confirmed + mempool, trustedSpendable: confirmed, immature: 0, trustedPending: 0,
                              untrustedPending: mempool, confirmed: confirmed)
    }
}
