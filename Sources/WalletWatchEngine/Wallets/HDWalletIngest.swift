import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

/// One pass over an Esplora source that watches an HD wallet (SPEC.md section 15): the sync
/// (``HDWalletSync``) works from the stored addresses and transactions, outside any database
/// transaction; what it found is then written in the source's one ingest transaction, where
/// Rule 1 and Rule 1b run.
struct HDWalletIngest: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let client: EsploraClient
    /// Requests in flight at most (`[http] concurrency`).
    let concurrency: Int

    /// The sync of `source`'s wallet.
    static func sync(_ source: SourceConfig, wallet: HDWallet, client: EsploraClient, concurrency: Int) -> HDWalletSync {
        // The config checked every address against the network when it was read.
        let listed = source.addresses.compactMap { try? Address($0, network: source.network) }
        return HDWalletSync(client: client, wallet: wallet, addresses: listed, gapLimit: source.gapLimit,
                            changeGapLimit: source.changeGapLimit, concurrency: concurrency)
    }

    /// The pass: what it stored, its warnings and how many requests it made.
    func ingest(_ source: SourceConfig, wallet: HDWallet, full: Bool) async throws -> (IngestCounts, [String], Int?) {
        let known = HDWalletSync.Known(
            addresses: try await database.walletAddresses(source: source.name),
            confirmedTxids: try await database.confirmedTxids(source: source.name, kind: .addresses))
        let outcome = try await Self.sync(source, wallet: wallet, client: client, concurrency: concurrency)
            .sync(known: known, full: full, now: clock.now)
        let now = clock.now
        let counts = try await database.ingest(source: source.name, startedAt: now, now: now) { session in
            let asset = try session.asset(kind: .addresses, name: source.asset ?? source.name)
            try session.save(outcome.balance)
            try session.saveWalletAddresses(outcome.addresses, changed: outcome.changed)
            try session.record(outcome.transactions, assetID: asset)
            try session.recordReservedReceipts(outcome.receipts)
            try session.markVanished(assetID: asset)
            if let tip = outcome.tipHeight { try session.saveTip(tip) }
        }
        var warnings: [String] = []
        if outcome.replacedStoredAddresses {
            warnings.append("the stored addresses were derived from other keys (the descriptors or xpub changed); they were replaced by this wallet's, and reservations on them are gone")
        }
        return (counts, warnings, outcome.requests)
    }
}
