import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

/// One pass over an Esplora source that watches an HD wallet (SPEC.md section 15): the sync
/// (``WalletSync``) works from the stored addresses and transactions before the pass claims its
/// source; what it found is then recorded in the pass and published with it, in the transaction
/// where Rule 1 and Rule 1b run.
struct HDWalletIngest: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let client: EsploraClient
    /// Requests in flight at most (`[http] concurrency`).
    let concurrency: Int

    /// The sync of `source`'s wallet through `backend`.
    static func sync(_ source: SourceConfig, wallet: HDWallet?, backend: any ChainBackend) -> WalletSync {
        // The config checked every address against the network when it was read.
        let listed = source.addresses.compactMap { try? Address($0, network: source.network) }
        return WalletSync(source: source.name, backend: backend, wallet: wallet, addresses: listed, gapLimit: source.gapLimit,
                          changeGapLimit: source.changeGapLimit)
    }

    /// Asks the explorer what changed since the stored addresses and transactions.
    func sync(_ source: SourceConfig, wallet: HDWallet, full: Bool) async throws -> WalletSync.Outcome {
        let known = WalletSync.Known(addresses: try await database.walletAddresses(source: source.name))
        let backend = EsploraBackend(client: client, knownConfirmed: try await database.confirmedTxids(source: source.name, kind: .addresses),
                                     concurrency: concurrency)
        return try await Self.sync(source, wallet: wallet, backend: backend).sync(known: known, full: full, now: clock.now)
    }

    /// Records `outcome` in `pass` and publishes it: the wallet's transactions, balance and
    /// addresses, and the payments to reserved addresses that Rule 1b allocates.
    static func publish(_ outcome: WalletSync.Outcome, of source: SourceConfig, in pass: LedgerPass, startedAt: Instant) async throws -> IngestCounts {
        var pass = pass
        let asset = try await pass.asset(.addresses, named: source.asset ?? source.name)
        try await pass.record(outcome.transactions, in: asset)
        try await pass.markVanished(in: asset)
        return try await pass.publish(startedAt: startedAt) { publication in
            try publication.save(outcome.balance)
            try publication.saveWalletAddresses(outcome.addresses, changed: outcome.changed)
            try publication.recordReservedReceipts(outcome.receipts)
            if let tip = outcome.tipHeight { try publication.saveTip(tip) }
        }
    }

    /// What is worth saying about a pass that did not stop it.
    static func warnings(_ outcome: WalletSync.Outcome) -> [String] {
        outcome.replacedStoredAddresses
            ? ["the stored addresses were derived from other keys (the descriptors or xpub changed); they were replaced by this wallet's, and reservations on them are gone"]
            : []
    }
}
