import Logging
import Synchronization
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// What one source's pass did.
public struct IngestReport: Sendable {
    public let source: String
    public let ok: Bool
    public let counts: IngestCounts
    /// The one-line reason when it failed.
    public let error: String?
    public let duration: Duration
    /// Things worth knowing that did not stop the pass (an unknown movement subsystem).
    public let warnings: [String]
    /// HTTP requests made (Esplora sources report theirs).
    public let requests: Int?
}

/// One pass over the configured sources into the store (SPEC.md section 5).
public struct Ingestor: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let clients: SourceClients
    let logger: Logger

    init(database: AppDatabase, config: AppConfig, clock: WallClock, clients: SourceClients, logger: Logger) {
        self.database = database
        self.config = config
        self.clock = clock
        self.clients = clients
        self.logger = logger
    }

    /// One pass over the named sources (all when `names` is empty), concurrently. A failing
    /// source changes nothing stored and does not stop the others; each report says how it went.
    public func ingest(sources names: [String] = [], full: Bool = false) async throws -> [IngestReport] {
        let selected = try selectSources(names)
        return await withTaskGroup(of: (Int, IngestReport).self) { group in
            for (index, source) in selected.enumerated() {
                group.addTask { (index, await self.ingest(source, full: full)) }
            }
            var reports: [(Int, IngestReport)] = []
            for await report in group { reports.append(report) }
            return reports.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The configured sources called `names` (all when empty), or a refusal naming the unknown one.
    func selectSources(_ names: [String]) throws -> [SourceConfig] {
        guard !names.isEmpty else { return config.sources }
        return try names.map { name in
            guard let source = config.source(named: name) else {
                let known = config.sources.map(\.name).joined(separator: ", ")
                throw Refusal("no source named '\(name)' in the config\(known.isEmpty ? " (none are configured)" : "; configured: \(known)")")
            }
            return source
        }
    }

    /// One pass over one source: fetch everything, then store it in one write.
    public func ingest(_ source: SourceConfig, full: Bool) async -> IngestReport {
        let started = ContinuousClock.now
        let startedAt = clock.now
        var logger = self.logger
        logger[metadataKey: "source"] = "\(source.name)"
        do {
            let (counts, warnings, requests) = switch source.kind {
            case .barkd: try await ingestBarkd(source)
            case .esplora: try await ingestEsplora(source, full: full)
            }
            let duration = ContinuousClock.now - started
            for warning in warnings { logger.warning("\(warning)") }
            logger.info("ingested", metadata: [
                "new": "\(counts.new)", "updated": "\(counts.updated)", "dropped": "\(counts.dropped)",
                "auto_allocated": "\(counts.autoAllocated)", "duration_ms": "\(duration.milliseconds)",
            ])
            return IngestReport(source: source.name, ok: true, counts: counts, error: nil, duration: duration,
                                warnings: warnings, requests: requests)
        } catch {
            let reason = (error as? any Classified)?.description ?? String(describing: error)
            logger.error("ingest failed: \(reason)")
            do {
                try await database.recordIngestFailure(source: source.name, startedAt: startedAt, finishedAt: clock.now, error: reason)
            } catch {
                logger.error("could not record the failed run: \(error)")
            }
            return IngestReport(source: source.name, ok: false, counts: IngestCounts(), error: reason,
                                duration: ContinuousClock.now - started, warnings: [], requests: nil)
        }
    }

    /// A barkd pass. The history streams into the write transaction while it is decoded (a
    /// bounded pipe between libcurl's thread and the database writer), so that a history of a
    /// million movements costs the time of the slower of the two and the memory of a window.
    private func ingestBarkd(_ source: SourceConfig) async throws -> (IngestCounts, [String], Int?) {
        let client = try clients.barkd(source)
        let tracksOnchain = source.onchainAsset != nil
        let pipe = BatchPipe<ObservedTransaction>()
        let unknownSubsystems = Mutex<Set<String>>([])
        let history = Task {
            do {
                try await client.history { movement in
                    let (transaction, unknown) = MovementMapping.transaction(movement, source: source.name)
                    if let unknown { unknownSubsystems.withLock { _ = $0.insert(unknown) } }
                    try pipe.push(transaction)
                }
                pipe.finish()
            } catch {
                pipe.fail(error)
            }
        }
        async let balance = client.balance()
        async let onchainBalance = tracksOnchain ? client.onchainBalance() : nil
        async let wallet = tracksOnchain ? client.onchainTransactions() : []
        async let vtxos = client.vtxos()
        async let utxos = tracksOnchain ? client.utxos() : []
        async let info = client.arkInfo()
        async let tip = client.tipHeight()
        let fetched: (ArkBalance, OnchainBalance?, [WalletTransaction], [VTXO], [UTXO], ArkServerInfo, Int64)
        do {
            fetched = try await (balance, onchainBalance, wallet, vtxos, utxos, info, tip)
        } catch {
            pipe.cancel()
            history.cancel()
            throw error
        }

        let now = clock.now
        let onchainTransactions = fetched.2.map { MovementMapping.transaction($0, tipHeight: fetched.6, now: now) }
        let counts: IngestCounts
        do {
            counts = try await database.ingest(source: source.name, startedAt: now, now: now) { session in
                let arkAsset = try session.asset(kind: .ark, name: source.arkAsset ?? source.name)
                try session.save(fetched.0)
                while let batch = try pipe.next() { try session.record(batch, assetID: arkAsset) }
                try session.markVanished(assetID: arkAsset)
                if let onchainName = source.onchainAsset, let onchainBalance = fetched.1 {
                    let onchainAsset = try session.asset(kind: .onchain, name: onchainName)
                    try session.save(onchainBalance)
                    try session.record(onchainTransactions, assetID: onchainAsset)
                    try session.markVanished(assetID: onchainAsset)
                    try session.replace(fetched.4)
                }
                try session.replace(fetched.3)
                try session.save(fetched.5)
                try session.saveTip(fetched.6)
            }
        } catch {
            pipe.cancel()
            _ = await history.result
            throw error
        }
        _ = await history.result
        let warnings = unknownSubsystems.withLock { $0 }.sorted().map { "movement subsystem \(JSONReader.shown($0)) is unknown; stored as type ark" }
        return (counts, warnings, nil)
    }

    private func ingestEsplora(_ source: SourceConfig, full: Bool) async throws -> (IngestCounts, [String], Int?) {
        let client = clients.esplora(source)
        if let wallet = source.wallet {
            return try await HDWalletIngest(database: database, clock: clock, client: client, concurrency: config.http.concurrency)
                .ingest(source, wallet: wallet, full: full)
        }
        let known = try await database.confirmedTxids(source: source.name, kind: .addresses)
        let synced = try await database.syncedAddresses(source: source.name)
        let sync = try await client.sync(addresses: source.addresses, knownConfirmed: known, synced: synced, full: full)
        let now = clock.now
        let counts = try await database.ingest(source: source.name, startedAt: now, now: now) { session in
            let asset = try session.asset(kind: .addresses, name: source.asset ?? source.name)
            try session.save(sync.balance)
            try session.record(sync.transactions, assetID: asset)
            try session.markVanished(assetID: asset)
            try session.markSynced(addresses: source.addresses)
            if let tip = sync.tipHeight { try session.saveTip(tip) }
        }
        return (counts, [], sync.requests)
    }
}

extension Duration {
    /// Whole milliseconds.
    public var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
