import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

extension Ingestor {
    /// An evm pass (SPEC.md section 26): the chain checked once a session (in one batch with the
    /// tip), else the tip alone; when it has not moved, nothing else is asked and nothing but the
    /// run is written (one request).
    /// Otherwise the sync's rows, balances and state are stored in one pass; confirmed rows that
    /// do not add up to the balance are reported as a warning, never absorbed.
    func ingestEVM(_ source: SourceConfig, full: Bool, startedAt: Instant) async throws -> PassResult {
        let registry = try database.currencyRegistry()
        let sync = try clients.evm(source, registry: registry)
        let watch = sync.watch
        let sessionKey = "\(source.name)\u{0}\(watch.chainID)\u{0}\(watch.tokens.map(\.contract.lowercased).joined(separator: ","))"
        let callsBefore = sync.calls
        let tip: Int64
        if clients.evmSessions.isChecked(sessionKey) {
            tip = try await sync.tip()
        } else {
            tip = try await sync.checkChain(tip: true)!
            clients.evmSessions.markChecked(sessionKey)
        }
        let state = try await database.evmSyncState(source: source.name)
        let configured = Set(watch.addresses.flatMap { address in watch.assets.map { "\(address.lowercased)/\($0)" } })
        let known = Set(state.pairs.map { "\($0.address.lowercased)/\($0.asset)" })
        let names = Self.assetNames(source, watch: watch)
        if !full, state.tip == tip, configured.isSubset(of: known) {
            // Nothing moved: the run is recorded, nothing else is written.
            var pass = try await claim(source.name, now: clock.now)
            do {
                for asset in watch.assets { _ = try await pass.asset(.evm, currency: watch.currency(of: asset), named: names[asset]!) }
                let counts = try await pass.publish(startedAt: startedAt) { _ in }
                return PassResult(counts: counts, warnings: [], requests: sync.calls - callsBefore, roundTrips: nil, historyRequests: 0)
            } catch {
                await giveUp(pass, source: source.name)
                throw error
            }
        }
        let database = database
        let name = source.name
        let outcome = try await sync.sync(from: state, tip: tip, full: full) { asset in
            try await database.evmConfirmedRows(source: name, currency: watch.currency(of: asset))
        }
        var pass = try await claim(source.name, now: clock.now)
        do {
            var keys: [EVMAssetKey: PassAsset] = [:]
            for asset in outcome.assets {
                let key = try await pass.asset(.evm, currency: asset.currency, named: names[asset.asset]!)
                keys[asset.asset] = key
                try await pass.record(asset.transactions, in: key)
            }
            let pending = outcome.assets.flatMap(\.pendingBlocks)
            let reconciled = outcome.assets.allSatisfy { $0.warning == nil }
            let assetKeys = keys
            let counts = try await pass.publish(startedAt: startedAt) { publication in
                for asset in outcome.assets {
                    try publication.saveBalance(of: assetKeys[asset.asset]!, counted: asset.counted, pending: asset.pending)
                    try publication.markFailed(asset.failed, in: assetKeys[asset.asset]!)
                }
                try publication.saveEVMState(pairs: outcome.pairs, pending: pending, unlistedTokens: outcome.unlistedTokens,
                                              tip: reconciled ? outcome.tip : nil)
            }
            let warnings = outcome.assets.compactMap(\.warning)
            return PassResult(counts: counts, warnings: warnings, requests: sync.calls - callsBefore + outcome.explorerRequests,
                              roundTrips: nil, historyRequests: outcome.historyRequests)
        } catch {
            await giveUp(pass, source: source.name)
            throw error
        }
    }

    /// The asset names of an evm source's coin and tokens, as the config gives them.
    static func assetNames(_ source: SourceConfig, watch: EVMWatch) -> [EVMAssetKey: String] {
        var names: [EVMAssetKey: String] = [.native: source.evm?.nativeAsset ?? "\(source.name) \(watch.native.code)"]
        for token in source.evm?.tokens ?? [] { names[.token(token.contract)] = token.asset }
        return names
    }
}
