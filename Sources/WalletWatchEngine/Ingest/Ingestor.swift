import Foundation
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
    /// HTTP requests made (Esplora sources report theirs), or JSON-RPC calls (electrum).
    public let requests: Int?
    /// Electrum: the writes the pass waited an answer for.
    public let roundTrips: Int?
    /// evm: the part of `requests` that asked for history (explorer requests, or `ots_` and
    /// `eth_getLogs` calls).
    public var historyRequests: Int? = nil
}

/// One pass over the configured sources into the store (SPEC.md section 5).
///
/// A pass fetches and decodes everything first, holding no database lock while bytes arrive;
/// then it compares with what is stored through reads and writes only the changes, in short
/// transactions that readers cannot see until one last short transaction publishes the whole
/// pass (``LedgerPass``; docs/ARCHITECTURE.md, "One ingest").
public struct Ingestor: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let clients: SourceClients
    let logger: Logger
    /// How long a pass waits for another process's pass of the same source to end.
    var claimPatience: Duration = .seconds(600)

    /// The largest barkd history accepted: about six million movements. It is kept on disk
    /// while it arrives, never in memory.
    static let maximumHistoryBytes = 4 << 30

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

    /// One pass over one source. `full` compares everything the source reports, even an
    /// answer it sent unchanged, and pages through every Esplora history.
    public func ingest(_ source: SourceConfig, full: Bool) async -> IngestReport {
        let started = ContinuousClock.now
        let startedAt = clock.now
        var logger = self.logger
        logger[metadataKey: "source"] = "\(source.name)"
        do {
            let result = switch source.kind {
            case .barkd: try await ingestBarkd(source, full: full, startedAt: startedAt)
            case .esplora: try await ingestEsplora(source, full: full, startedAt: startedAt)
            case .electrum: try await ingestElectrum(source, full: full, startedAt: startedAt)
            case .evm: try await ingestEVM(source, full: full, startedAt: startedAt)
            case .fulmine: try await ingestFulmine(source, startedAt: startedAt)
            case .arkd: try await ingestArkd(source, startedAt: startedAt)
            }
            let duration = ContinuousClock.now - started
            for warning in result.warnings { logger.warning("\(warning)") }
            logger.info("ingested", metadata: [
                "new": "\(result.counts.new)", "updated": "\(result.counts.updated)", "dropped": "\(result.counts.dropped)",
                "auto_allocated": "\(result.counts.autoAllocated)", "duration_ms": "\(duration.milliseconds)",
            ])
            return IngestReport(source: source.name, ok: true, counts: result.counts, error: nil, duration: duration,
                                warnings: result.warnings, requests: result.requests, roundTrips: result.roundTrips,
                                historyRequests: result.historyRequests)
        } catch {
            // Cancelled (the daemon is stopping): not a failure of the source, nothing recorded.
            if Task.isCancelled {
                logger.notice("pass cancelled: the daemon is stopping; nothing of it is stored")
                return IngestReport(source: source.name, ok: false, counts: IngestCounts(), error: "cancelled: the daemon is stopping; nothing of the pass was stored",
                                    duration: ContinuousClock.now - started, warnings: [], requests: nil, roundTrips: nil)
            }
            let reason = await redacted((error as? any Classified)?.description ?? String(describing: error), of: source)
            logger.error("ingest failed: \(reason)")
            do {
                try await database.recordIngestFailure(source: source.name, startedAt: startedAt, finishedAt: clock.now, error: reason)
            } catch {
                logger.error("could not record the failed run: \(error)")
            }
            return IngestReport(source: source.name, ok: false, counts: IngestCounts(), error: reason,
                                duration: ContinuousClock.now - started, warnings: [], requests: nil, roundTrips: nil)
        }
    }

    /// A wallet source's failure without its addresses and scripts (``WalletRedaction``): it
    /// is logged, stored and sent in `source.failing`.
    func redacted(_ text: String, of source: SourceConfig) async -> String {
        guard source.watchesAddresses || source.kind == .evm || source.kind == .arkd else { return text }
        let stored = (try? await database.walletAddresses(source: source.name)) ?? []
        return WalletRedaction(source: source, stored: stored).redact(text)
    }

    /// A barkd pass. The history (the one answer that grows without bound) is kept in a file
    /// while it arrives; when its digest equals the last stored one, nothing of it changed and
    /// it is not even decoded. Otherwise it is decoded from the file in batches, each compared
    /// with what is stored.
    private func ingestBarkd(_ source: SourceConfig, full: Bool, startedAt: Instant) async throws -> PassResult {
        let client = try clients.barkd(source)
        let tracksOnchain = source.onchainAsset != nil
        let known = try await full ? nil : database.sourceDigest(source: source.name, part: Self.historyPart, kind: .ark)
        async let history = fetchHistory(client, skipHead: known?.digest.head)
        async let balance = client.balance()
        async let onchainBalance = tracksOnchain ? client.onchainBalance() : nil
        async let wallet = tracksOnchain ? client.onchainTransactions() : []
        async let vtxos = client.vtxos()
        async let utxos = tracksOnchain ? client.utxos() : []
        async let info = client.arkInfo()
        async let tip = client.tipHeight()
        let report = try await BarkdReport(balance: balance, onchainBalance: onchainBalance, walletTransactions: wallet,
                                           vtxos: vtxos, utxos: utxos, info: info, tipHeight: tip)
        var (spool, body) = try await history

        let now = clock.now
        var pass = try await claim(source.name, now: now)
        do {
            let ark = try await pass.asset(.ark, named: source.arkAsset ?? source.name)
            // Read again now that the source is this pass's: another pass may have stored one since.
            let stored = try await full ? nil : database.sourceDigest(source: source.name, part: Self.historyPart, kind: .ark)
            var decoded = DecodedHistory(movements: stored?.items ?? 0)
            if stored?.matches(body.digest) != true {
                // Its head was the last history's, so it was not kept; it differs further on.
                if !body.isKept { (spool, body) = try await fetchHistory(client, skipHead: nil) }
                decoded = try await recordHistory(in: spool, client: client, source: source.name, pass: &pass, asset: ark)
                try await pass.markVanished(in: ark)
            }
            if let onchainName = source.onchainAsset, report.onchainBalance != nil {
                let onchain = try await pass.asset(.onchain, named: onchainName)
                let transactions = report.walletTransactions.map { MovementMapping.transaction($0, tipHeight: report.tipHeight, now: now) }
                try await pass.record(transactions, in: onchain)
                try await pass.markVanished(in: onchain)
            }
            let (digest, items) = (body.digest, decoded.movements)
            let counts = try await pass.publish(startedAt: startedAt) { publication in
                try publication.save(report.balance)
                if tracksOnchain, let onchainBalance = report.onchainBalance {
                    try publication.save(onchainBalance)
                    try publication.replace(report.utxos)
                }
                try publication.replace(report.vtxos)
                try publication.save(report.info)
                try publication.saveTip(report.tipHeight)
                try publication.save(digest, part: Self.historyPart, items: items)
            }
            let warnings = decoded.unknownSubsystems.sorted().map { "movement subsystem \(JSONReader.shown($0)) is unknown; stored as type ark" }
            return PassResult(counts: counts, warnings: warnings, requests: nil, roundTrips: nil)
        } catch {
            await giveUp(pass, source: source.name)
            throw error
        }
    }

    /// Downloads barkd's history into a new spool, which keeps it unless it starts with `skipHead`.
    private func fetchHistory(_ client: BarkdClient, skipHead: String?) async throws -> (BodySpool, Spooled) {
        let spool = try BodySpool(folder: spoolFolder, skipHead: skipHead)
        try await client.downloadHistory(into: spool, maxBytes: Self.maximumHistoryBytes)
        return (spool, try spool.finish())
    }

    /// The history's part in the stored digests.
    private static let historyPart = "history"

    /// Decodes the spooled history (1 MiB at a time) and records its movements in batches.
    private func recordHistory(
        in spool: BodySpool, client: BarkdClient, source: String, pass: inout LedgerPass, asset: PassAsset
    ) async throws -> DecodedHistory {
        var decoder = client.historyDecoder()
        var decoded = DecodedHistory(movements: 0)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var batch: [ObservedTransaction] = []
        var offset = 0
        while true {
            let count = try spool.read(at: offset, into: &buffer)
            guard count > 0 else { break }
            offset += count
            let movements = try buffer.withUnsafeBytes { try decoder.decode(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for movement in movements {
                let (transaction, unknown) = MovementMapping.transaction(movement, source: source)
                if let unknown { decoded.unknownSubsystems.insert(unknown) }
                batch.append(transaction)
            }
            decoded.movements += movements.count
            if batch.count >= 2_048 {
                try await pass.record(batch, in: asset)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try decoder.finish()
        try await pass.record(batch, in: asset)
        return decoded
    }

    private func ingestEsplora(_ source: SourceConfig, full: Bool, startedAt: Instant) async throws -> PassResult {
        let client = clients.esplora(source)
        if source.wallet != nil {
            let outcome = try await WalletIngest(database: database, clock: clock)
                .sync(source, client: client, concurrency: config.http.concurrency, full: full)
            return try await publish(outcome, of: source, startedAt: startedAt)
        }
        let known = try await database.confirmedTxids(source: source.name, kind: .addresses)
        let synced = try await database.syncedAddresses(source: source.name)
        let sync = try await client.sync(addresses: source.addresses, knownConfirmed: known, synced: synced, full: full)
        var pass = try await claim(source.name, now: clock.now)
        do {
            let asset = try await pass.asset(.addresses, named: source.asset ?? source.name)
            try await pass.record(sync.transactions, in: asset)
            try await pass.markVanished(in: asset)
            let counts = try await pass.publish(startedAt: startedAt) { publication in
                try publication.save(sync.balance)
                try publication.markSynced(addresses: source.addresses)
                if let tip = sync.tipHeight { try publication.saveTip(tip) }
            }
            return PassResult(counts: counts, warnings: [], requests: sync.requests, roundTrips: nil)
        } catch {
            await giveUp(pass, source: source.name)
            throw error
        }
    }

    /// An electrum pass, on the daemon's live session when it has one (statuses it follows
    /// cost nothing), else on a session of its own.
    private func ingestElectrum(_ source: SourceConfig, full: Bool, startedAt: Instant) async throws -> PassResult {
        let lease = try await clients.electrumSession(for: source)
        defer { lease.release() }
        var outcome = try await WalletIngest(database: database, clock: clock).sync(source, session: lease.session, full: full)
        if lease.owned {
            // A session of its own: opening it (server.version, the tip) is part of the pass's cost.
            (outcome.requests, outcome.roundTrips) = lease.session.connection.counts
        }
        return try await publish(outcome, of: source, startedAt: startedAt)
    }

    /// Claims the source and publishes a wallet's pass.
    private func publish(_ outcome: WalletSync.Outcome, of source: SourceConfig, startedAt: Instant) async throws -> PassResult {
        let pass = try await claim(source.name, now: clock.now)
        do {
            let counts = try await WalletIngest.publish(outcome, of: source, in: pass, startedAt: startedAt)
            return PassResult(counts: counts, warnings: WalletIngest.warnings(outcome, of: source), requests: outcome.requests, roundTrips: outcome.roundTrips)
        } catch {
            await giveUp(pass, source: source.name)
            throw error
        }
    }

    /// Claims `source` for a pass, waiting while a pass of another process holds it (at most
    /// ``claimPatience``: a pass holds its source while it compares and writes, never while it
    /// downloads).
    func claim(_ source: String, now: Instant) async throws -> LedgerPass {
        let deadline = ContinuousClock.now + claimPatience
        var waiting = false
        while true {
            switch try await database.claimPass(source: source, now: now) {
            case .claimed(let pass):
                return pass
            case .busy(let owner, let since):
                guard ContinuousClock.now < deadline else { throw SourceBusy(source: source, owner: owner, since: since) }
                if !waiting {
                    logger.notice("waiting for another pass of this source to end", metadata: ["source": "\(source)", "owner": "\(owner)"])
                    waiting = true
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Gives up a pass that failed; what it staged never becomes visible.
    func giveUp(_ pass: consuming LedgerPass, source: String) async {
        do {
            try await pass.abandon()
        } catch {
            logger.error("could not remove what the failed pass staged; the next pass of the source will", metadata: [
                "source": "\(source)", "error": "\(error)",
            ])
        }
    }

    /// Where downloads are kept while a pass runs: beside the database.
    private var spoolFolder: String {
        database.path.map { ($0 as NSString).deletingLastPathComponent }.flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.currentDirectoryPath
    }
}

/// What a pass did, before it is reported.
struct PassResult: Sendable {
    let counts: IngestCounts
    let warnings: [String]
    let requests: Int?
    let roundTrips: Int?
    var historyRequests: Int? = nil
}

/// Everything a barkd daemon reports besides its history.
struct BarkdReport: Sendable {
    let balance: ArkBalance
    let onchainBalance: OnchainBalance?
    let walletTransactions: [WalletTransaction]
    let vtxos: [VTXO]
    let utxos: [UTXO]
    let info: ArkServerInfo
    let tipHeight: Int64
}

/// What decoding a barkd history found.
struct DecodedHistory: Sendable {
    var movements: Int
    var unknownSubsystems: Set<String> = []
}

/// A pass of another process holds the source for longer than a pass should.
public struct SourceBusy: Classified {
    public let source: String
    public let owner: PassOwner
    public let since: Instant

    public var description: String {
        "source '\(source)': another walletwatch process (\(owner)) has been ingesting it since \(since.iso8601); try again when it is done, or stop that process if it hangs"
    }

    public var kind: ErrorKind { .runtime }
}

extension Duration {
    /// Whole milliseconds.
    public var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
