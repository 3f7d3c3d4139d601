import WalletWatchCore
import WalletWatchNet

/// One pass over an `evm` source (SPEC.md section 26): the tip, and only when it moved one batch
/// of balances and nonces, history only for the addresses and assets that changed, from where
/// they stopped, completed by the node's receipts, then one net effect per transaction and asset.
///
/// It reads nothing stored by itself: the caller hands it the ``EVMSyncState`` the last pass
/// left and a way to read an asset's confirmed rows (for the reconciliation), and stores the
/// ``EVMSyncOutcome`` in one pass.
public struct EVMSync: Sendable {
    public let watch: EVMWatch
    let node: EVMNodeClient
    let explorer: EtherscanClient?

    /// `urlIsSecret`: the URL came from `url_file` or `url_env` and may hold a key; no log shows it.
    public init(watch: EVMWatch, url: String, http: any HTTPClient, route: NetworkRoute?, urlIsSecret: Bool = false) {
        self.watch = watch
        node = EVMNodeClient(rpc: JSONRPCClient(source: watch.source, url: url, http: http, route: route, urlIsSecret: urlIsSecret))
        if case .etherscan(let historyURL, let apiKey) = watch.history {
            explorer = EtherscanClient(source: watch.source, url: historyURL, chainID: watch.chainID, chainName: watch.chainName,
                                       apiKey: apiKey, http: http, route: route)
        } else {
            explorer = nil
        }
    }

    /// JSON-RPC calls made so far through this value's client.
    public var calls: Int { node.rpc.counts.calls }

    /// Checks that the node serves the configured chain, and that each token's `decimals()` is
    /// its currency's: once a session (SPEC.md section 26). With `tip`, the same batch asks
    /// `eth_blockNumber` too, so that a session's first pass that finds nothing new still costs
    /// one request; returns the tip then.
    @discardableResult
    public func checkChain(tip: Bool = false) async throws -> Int64? {
        var calls = [JSONRPCCall("eth_chainId")]
        for token in watch.tokens {
            calls.append(JSONRPCCall("eth_call", [.object(["to": .string(token.contract.lowercased), "data": .string(ERC20.decimals)]), .string("latest")]))
        }
        if tip { calls.append(JSONRPCCall("eth_blockNumber")) }
        let results = try await node.rpc.batch(calls)
        let chainID = try node.rpc.decoded("eth_chainId", results[0]) { try $0.smallQuantity() }
        guard chainID == watch.chainID else {
            throw node.rpc.failure("eth_chainId", "the node serves chain id \(chainID), but the source is configured for \(watch.chainName); check the url (you pointed at the wrong network) or the chain")
        }
        for (token, result) in zip(watch.tokens, results.dropFirst()) {
            let decimals = try node.rpc.decoded("eth_call decimals()", result) { value -> Int128 in
                let data = try value.data()
                guard let number = EVMValue.word(data) else { throw value.fail("decimals() did not answer one 32-byte number (is \(token.contract.lowercased) an ERC-20 contract?)") }
                return number
            }
            guard decimals == Int128(token.currency.exponent) else {
                throw node.rpc.failure("eth_call decimals()", "token \(token.contract.checksummed) has \(decimals) decimals, but \(token.currency.code) has \(token.currency.exponent); map the contract to a currency of \(decimals) decimals (`walletwatch currency add`)")
            }
        }
        guard tip else { return nil }
        return try node.rpc.decoded("eth_blockNumber", results[results.count - 1]) { try $0.smallQuantity() }
    }

    /// `eth_blockNumber`.
    public func tip() async throws -> Int64 { try await node.blockNumber() }

    /// Syncs from `state` given the `tip` just read. `confirmedRows(asset)` reads the asset's
    /// stored confirmed rows (txid to amount), for the reconciliation; `full` asks every history
    /// from block 0.
    public func sync(from state: EVMSyncState, tip: Int64, full: Bool,
                     confirmedRows: @Sendable (EVMAssetKey) async throws -> [String: Int128]) async throws -> EVMSyncOutcome {
        let callsBefore = node.rpc.counts.calls
        let snapshot = try await self.snapshot(tip: tip)
        let stored = Dictionary(state.pairs.map { (EVMPairKey(address: $0.address, asset: $0.asset), $0) }) { first, _ in first }
        let pendingByAsset = Dictionary(grouping: state.pending, by: \.asset)

        // What changed since the last pass, and so needs history.
        var fetch: [EVMPairKey: Int64] = [:]
        for (key, now) in snapshot.pairs {
            let before = stored[key]
            let changed = full || before == nil || before!.balance != now.balance || before!.nonce != now.nonce || before!.counted != now.counted
            if changed || pendingByAsset[key.asset] != nil {
                fetch[key] = full ? 0 : (before.map { $0.syncedBlock + 1 } ?? 0)
            }
        }
        var findings = EVMHistoryFindings()
        var receipts: [String: EVMReceipt] = [:]
        let historyCallsBefore = node.rpc.counts.calls
        try await discover(fetch, tip: tip, into: &findings, receipts: &receipts)
        let historyCalls = node.rpc.counts.calls - historyCallsBefore

        // The node completes what the history found: receipts (status, fee, block), the
        // transactions behind token and internal transfers, the times of their blocks.
        let watched = Set(watch.addresses)
        let pendingHashes = state.pending.map { String($0.txid.split(separator: ":").last ?? "") }
        let unknown = findings.hashes.union(pendingHashes).subtracting(receipts.keys).sorted()
        receipts.merge(try await node.receipts(unknown)) { first, _ in first }
        let missing = receipts.values.filter { findings.transactions[$0.hash] == nil && (watched.contains($0.from) || $0.to.map(watched.contains) == true) }
        findings.transactions.merge(try await node.transactions(missing.map(\.hash).sorted())) { first, _ in first }
        let untimed = Set(receipts.values.map(\.blockNumber)).subtracting(findings.blockTimes.keys).sorted()
        for (number, header) in try await node.headers(untimed) { findings.blockTimes[number] = header.timestamp }

        let ledger = EVMLedger(watch: watch, findings: findings, receipts: receipts, confirmedBlock: snapshot.confirmed.number)
        var outcome = EVMSyncOutcome(tip: tip, confirmedBlock: snapshot.confirmed.number)
        outcome.unlistedTokens = findings.unlistedTokens.map(\.lowercased).sorted()
        for asset in watch.assets {
            var rows = ledger.rows(for: asset)
            let reported = Set(rows.map(\.txid))
            var pending: [EVMPendingBlock] = rows.compactMap { row in
                row.observed.status == .pending ? EVMPendingBlock(asset: asset, txid: row.observed.txid, block: row.block) : nil
            }
            var failed: [String] = []
            for stale in pendingByAsset[asset] ?? [] where !reported.contains(stale.txid) {
                let hash = String(stale.txid.split(separator: ":").last ?? "")
                if let receipt = receipts[hash] {
                    // Still in the chain, but its net effect on this asset is gone: it stays as it is.
                    if receipt.blockNumber > snapshot.confirmed.number { pending.append(EVMPendingBlock(asset: asset, txid: stale.txid, block: receipt.blockNumber)) }
                } else if stale.block <= snapshot.confirmed.number {
                    failed.append(stale.txid)
                } else {
                    pending.append(stale)
                }
            }
            let counted = snapshot.pairs.filter { $0.key.asset == asset }.reduce(Int128(0)) { $0 + $1.value.counted }
            let latest = snapshot.pairs.filter { $0.key.asset == asset }.reduce(Int128(0)) { $0 + $1.value.balance }
            var expected = try await confirmedRows(asset)
            for txid in failed { expected[txid] = nil }
            for row in rows { expected[row.txid] = row.observed.status == .confirmed ? row.observed.amount : nil }
            let difference = counted - expected.values.reduce(0, +)
            var reconciled = difference == 0
            if !reconciled, asset == .native, watch.history == .none {
                // The node alone cannot list native transfers: what no transaction explains is
                // one adjustment, dated at the block where it was seen.
                let txid = "evm:\(watch.chainID):adjustment:\(snapshot.confirmed.number)"
                rows.append(EVMLedgerRow(block: snapshot.confirmed.number, observed: ObservedTransaction(
                    txid: txid, amount: difference, type: .adjustment, status: .confirmed,
                    date: Instant(millisecondsSinceEpoch: snapshot.confirmed.timestamp * 1000))))
                reconciled = true
            }
            var assetOutcome = EVMAssetOutcome(asset: asset, currency: watch.currency(of: asset), transactions: rows.map(\.observed),
                                               counted: counted, pending: latest - counted, failed: failed.sorted(), pendingBlocks: pending)
            if !reconciled {
                assetOutcome.warning = "history incomplete: \(watch.currency(of: asset).code) rows confirmed add up to \(counted - difference), the balance at block \(snapshot.confirmed.number) is \(counted) (\(difference) unexplained, in the smallest unit)"
            }
            outcome.assets.append(assetOutcome)
            for (key, now) in snapshot.pairs where key.asset == asset {
                if reconciled, let synced = fetch[key] != nil ? snapshot.confirmed.number : stored[key]?.syncedBlock {
                    outcome.pairs.append(EVMPairState(address: key.address, asset: asset, balance: now.balance, counted: now.counted,
                                                      nonce: now.nonce, syncedBlock: synced))
                } else if let before = stored[key] {
                    // Rows that do not add up keep the old state: the next pass asks again.
                    outcome.pairs.append(before)
                }
            }
        }
        outcome.historyRequests = findings.requests + historyCalls
        outcome.explorerRequests = findings.requests
        outcome.requests = node.rpc.counts.calls - callsBefore + findings.requests
        return outcome
    }

    /// One batch: the confirmation block's header, and at the tip and at that block every
    /// address's balance, nonce and token balances.
    private func snapshot(tip: Int64) async throws -> EVMSnapshot {
        let tipTag = JSONValue.string(EVMValue.hex(tip))
        let confirmedTag: JSONValue = switch watch.confirmations {
        case .finalized: .string("finalized")
        case .blocks(let count): .string(EVMValue.hex(max(0, tip - Int64(count) + 1)))
        }
        var calls = [JSONRPCCall("eth_getBlockByNumber", [confirmedTag, .bool(false)])]
        var slots: [(EVMPairKey, Int)] = []
        for address in watch.addresses {
            slots.append((EVMPairKey(address: address, asset: .native), calls.count))
            calls.append(JSONRPCCall("eth_getBalance", [.string(address.lowercased), tipTag]))
            calls.append(JSONRPCCall("eth_getBalance", [.string(address.lowercased), confirmedTag]))
            calls.append(JSONRPCCall("eth_getTransactionCount", [.string(address.lowercased), tipTag]))
            for token in watch.tokens {
                slots.append((EVMPairKey(address: address, asset: .token(token.contract)), calls.count))
                let data = JSONValue.string(ERC20.balanceOf + address.word.dropFirst(2))
                calls.append(JSONRPCCall("eth_call", [.object(["to": .string(token.contract.lowercased), "data": data]), tipTag]))
                calls.append(JSONRPCCall("eth_call", [.object(["to": .string(token.contract.lowercased), "data": data]), confirmedTag]))
            }
        }
        let results = try await node.rpc.batch(calls)
        let confirmed = try node.header("eth_getBlockByNumber", results[0])
        guard confirmed.number <= tip else {
            throw node.rpc.failure("eth_getBlockByNumber", "the confirmation block \(confirmed.number) is above the tip \(tip)")
        }
        var pairs: [EVMPairKey: EVMPairNow] = [:]
        for (key, index) in slots {
            switch key.asset {
            case .native:
                let balance = try node.rpc.decoded("eth_getBalance", results[index]) { try $0.quantity() }
                let counted = try node.rpc.decoded("eth_getBalance", results[index + 1]) { try $0.quantity() }
                let nonce = try node.rpc.decoded("eth_getTransactionCount", results[index + 2]) { try $0.smallQuantity() }
                pairs[key] = EVMPairNow(balance: balance, counted: counted, nonce: nonce)
            case .token(let contract):
                let word = { (value: EVMValue) throws -> Int128 in
                    let data = try value.data()
                    guard let amount = EVMValue.word(data) else {
                        throw value.fail("balanceOf of \(contract.lowercased) did not answer one 32-byte number below 2^127")
                    }
                    return amount
                }
                let balance = try node.rpc.decoded("eth_call balanceOf", results[index], word)
                let counted = try node.rpc.decoded("eth_call balanceOf", results[index + 1], word)
                pairs[key] = EVMPairNow(balance: balance, counted: counted, nonce: 0)
            }
        }
        return EVMSnapshot(confirmed: confirmed, pairs: pairs)
    }

    /// Asks the configured history for the pairs in `fetch`, each from its block on.
    private func discover(_ fetch: [EVMPairKey: Int64], tip: Int64, into findings: inout EVMHistoryFindings,
                          receipts: inout [String: EVMReceipt]) async throws {
        guard !fetch.isEmpty else { return }
        let watchedTokens = Set(watch.tokens.map(\.contract))
        for address in watch.addresses {
            let nativeFrom = fetch[EVMPairKey(address: address, asset: .native)]
            let tokenFroms = watch.tokens.compactMap { token in fetch[EVMPairKey(address: address, asset: .token(token.contract))] }
            switch watch.history {
            case .etherscan:
                let froms = (nativeFrom.map { [$0] } ?? []) + tokenFroms
                guard let from = froms.min(), from <= tip, let explorer else { continue }
                findings.merge(try await explorer.history(of: address, blocks: from...tip, native: nativeFrom != nil, tokens: watchedTokens))
            case .otterscan:
                guard let from = nativeFrom, from <= tip else { continue }
                let (found, foundReceipts) = try await node.otterscanHistory(of: address, after: max(0, from - 1), tip: tip, tokens: watchedTokens)
                // `after` is exclusive, except that 0 starts at genesis.
                findings.merge(found)
                receipts.merge(foundReceipts) { first, _ in first }
            case .none:
                break
            }
        }
        if watch.history != .otterscan && watch.history != .none { return }
        // Token transfers from the node's logs: one range for every changed token pair.
        let tokenPairs = fetch.filter { if case .token = $0.key.asset { true } else { false } }
        guard let from = tokenPairs.values.min(), from <= tip else { return }
        let tokens = Set(tokenPairs.keys.compactMap { if case .token(let contract) = $0.asset { contract } else { nil } })
        findings.merge(try await node.transferLogs(tokens: tokens.sorted(), addresses: watch.addresses, blocks: from...tip))
    }
}

/// One address and asset.
struct EVMPairKey: Hashable, Sendable {
    let address: EVMAddress
    let asset: EVMAssetKey
}

/// An address's figures for one asset now.
struct EVMPairNow: Sendable {
    let balance: Int128
    let counted: Int128
    let nonce: Int64
}

/// The batch of one pass.
struct EVMSnapshot: Sendable {
    let confirmed: EVMBlockHeader
    let pairs: [EVMPairKey: EVMPairNow]
}

/// What a pass found for one of the source's assets.
public struct EVMAssetOutcome: Sendable {
    public let asset: EVMAssetKey
    public let currency: Currency
    /// One row per transaction with a net effect (or a fee) on the asset.
    public var transactions: [ObservedTransaction]
    /// The balance at the confirmation depth, summed over the addresses.
    public let counted: Int128
    /// The balance at the tip less `counted`.
    public let pending: Int128
    /// Stored pending txids gone from the chain once their height became final.
    public let failed: [String]
    /// The asset's transactions still above the confirmation depth, with their blocks.
    public let pendingBlocks: [EVMPendingBlock]
    /// `history incomplete: ...` when the confirmed rows do not add up to `counted`.
    public var warning: String?
}

/// What a pass over an `evm` source found.
public struct EVMSyncOutcome: Sendable {
    public let tip: Int64
    public let confirmedBlock: Int64
    public var assets: [EVMAssetOutcome] = []
    /// The sync state to store for the next pass.
    public var pairs: [EVMPairState] = []
    /// Contracts of token transfers seen that are not in `tokens` (never stored as assets).
    public var unlistedTokens: [String] = []
    /// JSON-RPC calls plus explorer requests of the sync (not the tip).
    public var requests = 0
    /// The part of `requests` that asked for history.
    public var historyRequests = 0
    /// The explorer's requests (not JSON-RPC calls).
    public var explorerRequests = 0

    init(tip: Int64, confirmedBlock: Int64) {
        self.tip = tip
        self.confirmedBlock = confirmedBlock
    }
}

extension EVMSync {
    /// Only the balances (one batch after the tip), for the balance cache: per asset, the sum at
    /// the confirmation depth and the tip's excess over it.
    public func balances() async throws -> [(asset: EVMAssetKey, counted: Int128, pending: Int128)] {
        let snapshot = try await self.snapshot(tip: try await tip())
        return watch.assets.map { asset in
            let figures = snapshot.pairs.filter { $0.key.asset == asset }.map(\.value)
            let counted = figures.reduce(Int128(0)) { $0 + $1.counted }
            return (asset, counted, figures.reduce(Int128(0)) { $0 + $1.balance } - counted)
        }
    }
}
