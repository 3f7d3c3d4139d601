import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

/// One pass over a wallet's source (SPEC.md sections 15 and 21): an Esplora source that watches
/// an HD wallet, or an electrum source of any wallet. The sync (``WalletSync`` over the
/// source's ``ChainBackend``) works from what earlier passes stored before the pass claims its
/// source; what it found is then recorded in the pass and published with it, in the
/// transaction where Rule 1 and Rule 1b run.
struct WalletIngest: Sendable {
    let database: AppDatabase
    let clock: WallClock

    /// The sync of `source`'s wallet through `backend`.
    static func sync(_ source: SourceConfig, backend: any ChainBackend) -> WalletSync {
        // The config checked every address against the network when it was read.
        let listed = source.addresses.compactMap { try? Address($0, network: source.network) }
        return WalletSync(source: source.name, backend: backend, wallet: source.wallet, addresses: listed, gapLimit: source.gapLimit,
                          changeGapLimit: source.changeGapLimit, maxNewAddresses: source.maxAddressesPerPass)
    }

    /// Asks an Esplora explorer what changed since the stored addresses and transactions.
    func sync(_ source: SourceConfig, client: EsploraClient, concurrency: Int, full: Bool) async throws -> WalletSync.Outcome {
        let backend = EsploraBackend(client: client, knownConfirmed: try await database.confirmedTxids(source: source.name, kind: .addresses),
                                     concurrency: concurrency)
        return try await sync(source, backend: backend, full: full)
    }

    /// Asks an Electrum server, over `session`, what changed since the stored statuses.
    func sync(_ source: SourceConfig, session: ElectrumSession, full: Bool) async throws -> WalletSync.Outcome {
        let backend = ElectrumBackend(session: session, network: source.network, store: Self.store(database, source: source.name))
        return try await sync(source, backend: backend, full: full)
    }

    private func sync(_ source: SourceConfig, backend: any ChainBackend, full: Bool) async throws -> WalletSync.Outcome {
        let known = WalletSync.Known(addresses: try await database.walletAddresses(source: source.name))
        return try await Self.sync(source, backend: backend).sync(known: known, full: full, now: clock.now)
    }

    /// What `source`'s earlier passes kept, read from the database as the backend needs it.
    /// Headers are parsed back from their 80 bytes (verified before they were stored).
    static func store(_ database: AppDatabase, source: String) -> ElectrumStore {
        ElectrumStore(
            histories: { scripts in
                try await database.scriptHistories(source: source, scripts: scripts).mapValues { entries in
                    entries.map { ScriptHistoryEntry(txid: $0.txid, height: $0.height) }
                }
            },
            transactions: { txids in try await database.rawTransactions(txids) },
            headers: { heights in
                try await database.blockHeaders(source: source, heights: heights).compactMapValues { try? BlockHeader(parsing: $0.raw) }
            },
            topHeader: { height in
                guard let top = try await database.topBlockHeader(source: source, above: height) else { return nil }
                return (try? BlockHeader(parsing: top.raw)).map { (top.height, $0) }
            },
            listedElsewhere: { txids, scripts in try await database.txidsListed(source: source, txids: txids, excluding: scripts) },
            proofs: { txids in
                try await database.transactionProofs(source: source, txids: txids).mapValues { TransactionProof(height: $0.height, blockHash: $0.blockHash) }
            },
            highestConfirmedHeight: { try await database.highestConfirmedHeight(source: source) },
            unprovenScripts: { try await database.unprovenScripts(source: source) })
    }

    /// Records `outcome` in `pass` and publishes it: the wallet's transactions, balance and
    /// addresses, the payments to reserved addresses that Rule 1b allocates, and what the
    /// backend keeps between passes.
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
            let records = outcome.records
            guard !records.isEmpty else { return }
            try publication.saveRawTransactions(records.transactions)
            try publication.saveBlockHeaders(records.headers.mapValues { ($0.hashHex, Int64($0.time), $0.serialized) }, invalidFrom: records.headersInvalidFrom)
            try publication.saveTransactionProofs(records.proofs.mapValues { ($0.height, $0.blockHash) })
            try publication.saveScriptHistories(records.histories.mapValues { $0.map { ($0.txid, $0.height) } })
        }
    }

    /// What is worth saying about a pass that did not stop it.
    static func warnings(_ outcome: WalletSync.Outcome, of source: SourceConfig) -> [String] {
        var warnings: [String] = []
        if outcome.replacedStoredAddresses {
            warnings.append("the stored addresses were derived from other keys (the descriptors or xpub changed); they were replaced by this wallet's, and reservations on them are gone")
        }
        if outcome.windowCapped {
            let asset = source.asset ?? source.name
            warnings.append("this pass added max_addresses_per_pass = \(source.maxAddressesPerPass) addresses to the wallet's window and stopped there; the next pass goes on. A wallet that really uses that many can raise the limit; `walletwatch asset addresses '\(asset)' --deep N` shows which addresses past the window are used (a server that calls every address used is lying)")
        }
        return warnings
    }
}
