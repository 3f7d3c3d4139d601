import Logging
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

extension Engine {
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

    private func ingestBarkd(_ source: SourceConfig) async throws -> (IngestCounts, [String], Int?) {
        let client = try barkdClient(source)
        let tracksOnchain = source.onchainAsset != nil
        async let balance = client.balance()
        async let onchainBalance = tracksOnchain ? client.onchainBalance() : nil
        async let movements = client.history()
        async let wallet = tracksOnchain ? client.onchainTransactions() : []
        async let vtxos = client.vtxos()
        async let utxos = tracksOnchain ? client.utxos() : []
        async let info = client.arkInfo()
        async let tip = client.tipHeight()
        let fetched = try await (balance, onchainBalance, movements, wallet, vtxos, utxos, info, tip)

        let now = clock.now
        var warnings: Set<String> = []
        let arkTransactions = fetched.2.map { movement in
            let (transaction, unknown) = MovementMapping.transaction(movement, source: source.name)
            if let unknown { warnings.insert("movement subsystem '\(unknown)' is unknown; stored as type ark") }
            return transaction
        }
        let onchainTransactions = fetched.3.map { MovementMapping.transaction($0, tipHeight: fetched.7, now: now) }
        let counts = try await database.ingest(source: source.name, startedAt: now, now: now) { session in
            let arkAsset = try session.asset(kind: .ark, name: source.arkAsset ?? source.name)
            try session.save(fetched.0)
            try session.record(arkTransactions, assetID: arkAsset)
            try session.markVanished(assetID: arkAsset, reported: Set(arkTransactions.map(\.txid)))
            if let onchainName = source.onchainAsset, let onchainBalance = fetched.1 {
                let onchainAsset = try session.asset(kind: .onchain, name: onchainName)
                try session.save(onchainBalance)
                try session.record(onchainTransactions, assetID: onchainAsset)
                try session.markVanished(assetID: onchainAsset, reported: Set(onchainTransactions.map(\.txid)))
                try session.replace(fetched.5)
            }
            try session.replace(fetched.4)
            try session.save(fetched.6)
            try session.saveTip(fetched.7)
        }
        return (counts, warnings.sorted(), nil)
    }

    private func ingestEsplora(_ source: SourceConfig, full: Bool) async throws -> (IngestCounts, [String], Int?) {
        let client = EsploraClient(source: source.name, baseURL: source.url, http: http)
        let known = try await database.confirmedTxids(source: source.name, kind: .addresses)
        let sync = try await client.sync(addresses: source.addresses, knownConfirmed: known, full: full)
        let now = clock.now
        let counts = try await database.ingest(source: source.name, startedAt: now, now: now) { session in
            let asset = try session.asset(kind: .addresses, name: source.asset ?? source.name)
            try session.save(sync.balance)
            try session.record(sync.transactions, assetID: asset)
            try session.markVanished(assetID: asset, reported: Set(sync.transactions.map(\.txid)))
            if let tip = sync.tipHeight { try session.saveTip(tip) }
        }
        return (counts, [], sync.requests)
    }

    /// A client for a barkd source, with its token read from the file or environment named in the config.
    func barkdClient(_ source: SourceConfig) throws -> BarkdClient {
        let token = try source.token?.readToken(source: source.name)
        return BarkdClient(source: source.name, baseURL: source.url, token: token, http: http)
    }
}

extension Duration {
    /// Whole milliseconds.
    public var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
