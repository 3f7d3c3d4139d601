import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

/// How a source's balance was obtained by `walletwatch balance`.
public struct SourceBalanceStatus: Sendable {
    public let source: SourceConfig
    /// The stored rows (fresh, just fetched, or stale).
    public let ark: SourceArkBalance?
    public let onchain: SourceOnchainBalance?
    /// True when answered from stored values without asking the source.
    public let fromCache: Bool
    /// True when the source could not be asked and stored values older than the cache window are shown.
    public let stale: Bool
    /// Why the source could not be asked.
    public let error: String?
}

/// The answer of `walletwatch balance`.
public struct BalanceReport: Sendable {
    public let sources: [SourceBalanceStatus]
    public let assets: [AssetOverview]
    /// Warnings for stderr: stale sources, VTXOs close to expiry.
    public let warnings: [String]
    public let now: Instant
}

/// A VTXO expiring within this many blocks earns a warning (about one day).
public let vtxoExpiryWarningBlocks: Int64 = 144

/// The 5-minute balance cache (SPEC.md section 6b): balances from the store while they are
/// younger than `balance_cache_seconds`, else from the sources' balance endpoints only.
public struct BalanceCache: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let clients: SourceClients

    init(database: AppDatabase, config: AppConfig, clock: WallClock, clients: SourceClients) {
        self.database = database
        self.config = config
        self.clock = clock
        self.clients = clients
    }

    /// Balances of every asset, from stored balances younger than `balance_cache_seconds`
    /// (no request at all), else fetched from the balance endpoints only. A source that cannot
    /// be reached falls back to its stored balance, marked stale, with a warning; it fails only
    /// when nothing is stored.
    public func current(refresh: Bool) async throws -> BalanceReport {
        let now = clock.now
        let storedArk = try database.arkBalances()
        let storedOnchain = try database.onchainBalances()
        var statuses: [SourceBalanceStatus] = []
        var warnings: [String] = []
        for source in config.sources {
            let ark = storedArk[source.name]
            let onchain = storedOnchain[source.name]
            let needsArk = source.kind == .barkd || source.kind == .fulmine || source.kind == .arkd
            let needsOnchain = source.watchesAddresses || source.onchainAsset != nil
            let perAsset = source.kind == .evm ? try database.assetBalancesUpdated(source: source.name) : nil
            let stored = [needsArk ? ark?.lastUpdated : nil, needsOnchain ? onchain?.lastUpdated : nil, perAsset]
            let complete = (!needsArk || ark != nil) && (!needsOnchain || onchain != nil) && (source.kind != .evm || perAsset != nil)
            let oldest = stored.compactMap { $0 }.min()
            let fresh = complete && oldest.map { now.seconds(since: $0) < Int64(config.balanceCacheSeconds) } == true
            if fresh && !refresh {
                statuses.append(SourceBalanceStatus(source: source, ark: ark, onchain: onchain, fromCache: true, stale: false, error: nil))
                continue
            }
            do {
                try await refreshBalances(of: source, now: now)
                let ark = try database.arkBalances()[source.name]
                let onchain = try database.onchainBalances()[source.name]
                statuses.append(SourceBalanceStatus(source: source, ark: needsArk ? ark : nil, onchain: needsOnchain ? onchain : nil,
                                                    fromCache: false, stale: false, error: nil))
            } catch {
                let reason = (error as? any Classified)?.description ?? String(describing: error)
                guard complete, let oldest else {
                    throw SourceUnavailable(message: "\(reason); no balance of source '\(source.name)' is stored yet")
                }
                warnings.append("\(reason); showing balances of source '\(source.name)' stored \(Age.describe(now.seconds(since: oldest))) ago")
                statuses.append(SourceBalanceStatus(source: source, ark: ark, onchain: onchain, fromCache: true, stale: true, error: reason))
            }
        }
        warnings += try vtxoExpiryWarnings()
        return BalanceReport(sources: statuses, assets: try database.assetOverviews(), warnings: warnings, now: now)
    }

    /// Fetches only the balance endpoints of a source and stores them.
    func refreshBalances(of source: SourceConfig, now: Instant) async throws {
        switch source.kind {
        case .barkd:
            let client = try clients.barkd(source)
            async let ark = client.balance()
            async let onchain = source.onchainAsset != nil ? client.onchainBalance() : nil
            let (arkBalance, onchainBalance) = try await (ark, onchain)
            try database.saveBalances(
                source: source.name, ark: (source.arkAsset ?? source.name, arkBalance),
                onchain: onchainBalance.map { (source.onchainAsset!, .onchain, $0) }, now: now)
        case .fulmine:
            let client = clients.fulmine(source)
            async let amount = client.balance()
            async let history = client.transactions()
            let balance = try await ArkadeMapping.balance(amount: amount, history: history)
            try database.saveBalances(source: source.name, ark: (source.asset ?? source.name, balance), onchain: nil, now: now)
        case .arkd:
            let vtxos = try await clients.arkd(source).vtxos(scripts: source.arkScripts)
            try database.saveBalances(source: source.name, ark: (source.asset ?? source.name, ArkadeMapping.balance(of: vtxos)), onchain: nil, now: now)
        case .esplora, .electrum:
            let balance: OnchainBalance
            if source.kind == .esplora && source.wallet == nil {
                balance = try await clients.esplora(source).balance(addresses: source.addresses)
            } else {
                // A wallet's stored addresses; before its first ingest, the discovery's.
                let stored = try await database.walletAddresses(source: source.name)
                balance = try await clients.withChainBackend(source) { backend in
                    let sync = WalletIngest.sync(source, backend: backend)
                    return stored.isEmpty
                        ? try await sync.sync(known: WalletSync.Known(addresses: []), full: false, now: now).balance
                        : try await sync.balance(of: stored)
                }
            }
            try database.saveBalances(source: source.name, ark: nil, onchain: (source.asset ?? source.name, .addresses, balance), now: now)
        case .evm:
            let sync = try clients.evm(source, registry: try database.currencyRegistry())
            let names = Ingestor.assetNames(source, watch: sync.watch)
            let balances = try await sync.balances().map { figure in
                (asset: names[figure.asset]!, currency: sync.watch.currency(of: figure.asset), counted: figure.counted, pending: figure.pending)
            }
            try database.saveAssetBalances(source: source.name, balances: balances, now: now)
        }
    }

    /// One warning per VTXO that expires within ``vtxoExpiryWarningBlocks`` of its source's tip.
    func vtxoExpiryWarnings() throws -> [String] {
        let tips = try database.chainTips()
        return try database.vtxos().compactMap { stored in
            guard let tip = tips[stored.source], ["spendable", "locked"].contains(stored.vtxo.state) else { return nil }
            let left = stored.vtxo.expiryHeight - tip
            guard left <= vtxoExpiryWarningBlocks else { return nil }
            let amount = Money(minorUnits: Int128(stored.vtxo.amount), currency: .btc)
            let when = left <= 0 ? "expired at height \(stored.vtxo.expiryHeight)" : "expires in \(left) blocks (height \(stored.vtxo.expiryHeight))"
            return "VTXO \(stored.vtxo.id) of source '\(stored.source)' (\(amount)) \(when); refresh it with barkd before the Ark server can reclaim it"
        }
    }
}

/// A source could not be reached and nothing is stored to fall back on.
public struct SourceUnavailable: Classified, Equatable {
    public let message: String
    public var description: String { message }
    public var kind: ErrorKind { .runtime }
}

extension BalanceCache {
    /// Balances as stored, without asking any source (the web API: the daemon keeps them
    /// fresh). A source whose balance is older than the cache window is marked stale.
    public func stored() throws -> BalanceReport {
        let now = clock.now
        let ark = try database.arkBalances()
        let onchain = try database.onchainBalances()
        let statuses = config.sources.map { source -> SourceBalanceStatus in
            let arkRow = ark[source.name]
            let onchainRow = onchain[source.name]
            let oldest = [arkRow?.lastUpdated, onchainRow?.lastUpdated].compactMap { $0 }.min()
            let stale = oldest.map { now.seconds(since: $0) >= Int64(config.balanceCacheSeconds) } ?? true
            return SourceBalanceStatus(source: source, ark: arkRow, onchain: onchainRow, fromCache: true, stale: stale, error: nil)
        }
        return BalanceReport(sources: statuses, assets: try database.assetOverviews(), warnings: try vtxoExpiryWarnings(), now: now)
    }
}
