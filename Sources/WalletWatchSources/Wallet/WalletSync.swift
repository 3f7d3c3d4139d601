import WalletWatchBitcoin
import WalletWatchCore

/// One pass over a wallet (SPEC.md sections 15 and 21): an HD wallet's chains, the fixed
/// addresses beside them, or both, through any chain backend (``ChainBackend``: an Esplora
/// explorer or an Electrum server). From the addresses stored by earlier passes it finds what
/// changed and returns what to store. It reads nothing stored itself and writes nothing.
///
/// Each chain is watched from index 0 up to `gap limit` addresses past its highest used one;
/// when an address near the end gets used, the window grows and the new addresses are read in
/// the same pass, round after round until the window stops growing. What reading a script
/// costs is the backend's business; what the answers mean for the wallet (net amounts,
/// receipts, the balance, the window) is decided here, once for every backend.
public struct WalletSync: Sendable {
    /// What earlier passes stored.
    public struct Known: Sendable {
        /// The wallet's addresses as stored.
        public var addresses: [WalletAddress]

        /// The addresses earlier passes stored.
        public init(addresses: [WalletAddress]) {
            self.addresses = addresses
        }
    }

    /// What a pass found: everything the store needs.
    public struct Outcome: Sendable {
        /// Confirmed: the sum of the addresses' confirmed balances; untrusted pending: their mempool deltas.
        public var balance: OnchainBalance
        /// Every transaction read, once per txid, its amount for the whole wallet.
        public var transactions: [ObservedTransaction]
        /// Every watched address after the pass: receive chain, change chain, listed, each by index.
        public var addresses: [WalletAddress]
        /// The addresses whose stored rows are new or out of date.
        public var changed: Set<String>
        /// What the transactions read paid to the receive chain's addresses.
        public var receipts: [WalletReceipt]
        /// Requests made (HTTP requests, or JSON-RPC calls).
        public var requests: Int
        /// Writes waited on (Electrum); nil where the backend does not count them.
        public var roundTrips: Int?
        /// The chain tip, when the pass learnt it (a full pass, or an Electrum session's).
        public var tipHeight: Int64?
        /// Whether the stored addresses belonged to other keys (the descriptor changed) and were dropped.
        public var replacedStoredAddresses: Bool
        /// What the backend keeps between passes (Electrum: raw transactions, headers, histories).
        public var records: ChainRecords
        /// Whether the window stopped growing at the pass's limit of new addresses (it would
        /// have grown further; the next pass goes on from there).
        public var windowCapped = false
    }

    let backend: any ChainBackend
    /// The source's name, for messages.
    let source: String
    let wallet: HDWallet?
    /// The fixed addresses watched beside the chains: the config's `addresses` and the
    /// non-ranged descriptors' addresses.
    let listed: [Address]
    let gapLimits: [HDWallet.Chain: Int]
    /// The most addresses one pass derives and adds to the window.
    let maxNewAddresses: Int

    /// A sync of `source`'s `wallet` (nil: fixed addresses only) and the fixed `addresses`
    /// (already checked against the wallet's network) through `backend`, with the gap limits
    /// of the receive and change chains, adding at most `maxNewAddresses` to the window a pass.
    public init(source: String, backend: any ChainBackend, wallet: HDWallet?, addresses: [Address], gapLimit: Int, changeGapLimit: Int,
                maxNewAddresses: Int = 10_000) {
        self.source = source
        self.backend = backend
        self.wallet = wallet
        var seen = Set<String>()
        listed = (addresses + (wallet?.listedAddresses ?? [])).filter { seen.insert($0.description).inserted }
        gapLimits = [.receive: max(1, gapLimit), .change: max(1, changeGapLimit)]
        self.maxNewAddresses = max(1, maxNewAddresses)
    }

    /// One pass. `full` reads every address's whole history again (and the chain tip). A
    /// cancelled task (the daemon stopping) ends it between rounds: a pass is stored whole or
    /// not at all, so nothing is lost.
    public func sync(known: Known, full: Bool, now: Instant) async throws -> Outcome {
        var window = try Window(wallet: wallet, listed: listed, stored: known.addresses, gapLimits: gapLimits, budget: maxNewAddresses)
        var pending = window.addresses
        var readings: [String: ScriptReading] = [:]
        var requests = 0
        var roundTrips: Int?
        var records = ChainRecords()
        // A used address near the end of its chain's window grows the window; the new
        // addresses are read in the next round of this same pass, up to the pass's budget.
        while !pending.isEmpty {
            try Task.checkCancellation()
            let read = try await backend.read(pending, full: full, now: now)
            requests += read.requests
            if let trips = read.roundTrips { roundTrips = (roundTrips ?? 0) + trips }
            records.merge(read.records)
            var grown: [WalletAddress] = []
            for reading in read.readings {
                readings[reading.address.address] = reading
                grown += try window.update(reading.address).map(window.entry)
            }
            pending = grown
        }
        try Task.checkCancellation()
        let completed = try await backend.complete(readings, now: now)
        requests += completed.requests
        if let trips = completed.roundTrips { roundTrips = (roundTrips ?? 0) + trips }
        records.merge(completed.records)
        for reading in completed.readings {
            readings[reading.address.address] = reading
            // Completing fills in what a script's transactions say; whether it is used, which
            // is all the window grows by, was known already.
            _ = try window.update(reading.address)
        }
        let tip = try await backend.tip(full: full)
        requests += tip.requests
        if tip.requests > 0, roundTrips != nil { roundTrips! += 1 }
        let tipHeight = tip.height
        return try outcome(window: window, readings: readings, stored: known.addresses, requests: requests, roundTrips: roundTrips,
                           tipHeight: tipHeight, records: records)
    }

    /// The stored addresses' balance from their activity now (the balance cache).
    public func balance(of addresses: [WalletAddress]) async throws -> OnchainBalance {
        try Self.balance(try await backend.activities(of: addresses).activities, source: source)
    }

    /// The addresses at `indexes` of `chain` with their activity, derived without being stored
    /// (what `asset addresses --deep` looks at past the window), and the requests it took.
    public func probe(chain: HDWallet.Chain, indexes: Range<UInt32>) async throws -> (addresses: [WalletAddress], requests: Int) {
        guard let wallet, chain == .receive || wallet.hasChangeChain else { return ([], 0) }
        var derived = try wallet.derive(chain: chain, indexes: indexes).map { derived in
            WalletAddress(chain: chain == .receive ? .receive : .change, index: Int(derived.index), script: Hex.encode(derived.scriptPubKey),
                          address: derived.address)
        }
        let read = try await backend.activities(of: derived)
        for index in derived.indices { derived[index].activity = read.activities[index] }
        return (derived, read.requests)
    }

    /// A wallet's balance from its addresses' activity.
    static func balance(_ activities: [AddressActivity], source: String) throws -> OnchainBalance {
        // Each address's figures are at most 21 million BTC (checked when read); their sums
        // must be too, which also keeps them from overflowing.
        var confirmed: Int64 = 0
        var mempool: Int64 = 0
        for activity in activities {
            let (balance, overflow) = activity.funded.subtractingReportingOverflow(activity.spent)
            guard !overflow, let sum = BitcoinSupply.add(confirmed, balance), let delta = BitcoinSupply.add(mempool, activity.mempoolDelta) else {
                throw WalletSyncFailure(description: "source '\(source)': the addresses' activity adds up to more than the 21 million BTC that can exist")
            }
            (confirmed, mempool) = (sum, delta)
        }
        guard confirmed >= 0 else {
            throw WalletSyncFailure(description: "source '\(source)': the addresses' confirmed activity adds up to a negative balance (\(confirmed) sat)")
        }
        return OnchainBalance(total: confirmed + mempool, trustedSpendable: confirmed, immature: 0, trustedPending: 0,
                              untrustedPending: mempool, confirmed: confirmed)
    }
}

/// What a server said adds up to something no wallet can hold: its answers are wrong.
public struct WalletSyncFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
}
