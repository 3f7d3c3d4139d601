/// The control API in Swift: each method does what the matching `/control` endpoint does.
extension Simulator {
    /// Adds a movement (id 0 = the next free id) and pushes `movement-created`; returns it as stored.
    @discardableResult
    public func addMovement(_ movement: BarkdMovement, to wallet: String) async throws -> BarkdMovement {
        try await state.addMovement(movement, to: wallet)
    }

    /// Changes a movement (stored or generated) and pushes `movement-updated`; returns it.
    @discardableResult
    public func updateMovement(id: Int, in wallet: String, _ update: MovementUpdate) async throws -> BarkdMovement {
        try await state.updateMovement(id: id, in: wallet, update)
    }

    /// The movement with this id as the history serves it.
    public func movement(id: Int, in wallet: String) async -> BarkdMovement? {
        await state.wallet(wallet)?.movement(id: id)
    }

    /// Sets the wallet's Ark balance (`wallet/balance`); nil serves the balance the movements
    /// add up to again (it then follows every movement added or updated).
    public func setBalance(_ balance: BarkdBalance?, for wallet: String) async throws {
        try await state.modifyWallet(wallet) { $0.explicitBalance = balance }
    }

    /// Sets the wallet's on-chain balance (`onchain/balance`); nil serves the one its on-chain
    /// transactions add up to again.
    public func setOnchainBalance(_ balance: BarkdOnchainBalance?, for wallet: String) async throws {
        try await state.modifyWallet(wallet) { $0.explicitOnchainBalance = balance }
    }

    /// Sets one wallet's `bitcoin/tip`; nil returns it to the chain tip.
    public func setTip(_ height: Int?, for wallet: String) async throws {
        if let height, height < 0 { throw SimulatorError(.invalid, "a tip height must be >= 0") }
        try await state.modifyWallet(wallet) { $0.tipHeight = height }
    }

    /// Sets the chain tip: Esplora's and that of every wallet without its own.
    public func setChainTip(_ height: Int) async throws {
        try await state.setChainTip(height)
    }

    /// Replaces the wallet's VTXOs (`wallet/vtxos`).
    public func setVtxos(_ vtxos: [BarkdVtxo], for wallet: String) async throws {
        try await state.modifyWallet(wallet) { $0.vtxos = vtxos }
    }

    /// Replaces the wallet's UTXOs (`onchain/utxos`).
    public func setUtxos(_ utxos: [BarkdUtxo], for wallet: String) async throws {
        try await state.modifyWallet(wallet) { $0.utxos = utxos }
    }

    /// Appends a transaction to the wallet's on-chain list.
    public func addOnchainTransaction(_ transaction: BarkdWalletTx, to wallet: String) async throws {
        try await state.addOnchainTransaction(transaction, to: wallet)
    }

    /// Marks an on-chain wallet transaction as mined at `height` (hash: the chain's, by default).
    public func confirmOnchainTransaction(_ txid: String, in wallet: String, height: Int, hash: String? = nil) async throws {
        try await state.confirmOnchainTransaction(txid, in: wallet, at: BarkdBlockRef(height: height, hash: hash))
    }

    /// Adds an Esplora transaction (to the mempool when it has no block height).
    public func addEsploraTransaction(_ transaction: EsploraTxSpec) async throws {
        try await state.addEsploraTransaction(transaction)
    }

    /// Drops a mempool transaction, as an eviction would, with every mempool transaction that
    /// spends it; returns the txids dropped, the one asked for first.
    @discardableResult
    public func evictEsploraTransaction(_ txid: String) async throws -> [String] {
        try await state.evictEsploraTransaction(txid)
    }

    /// Mines a stored Esplora transaction at `height` (time: the chain's time for that height).
    public func confirmEsploraTransaction(_ txid: String, height: Int, time: Int64? = nil) async throws {
        try await state.confirmEsploraTransaction(txid, height: height, time: time)
    }

    /// Replaces the price table (or, with `merging`, changes only bitcoin's currencies given and
    /// the coins given: a table made with ``PriceTable/init(_:coins:)`` carries the default coins).
    public func setPrices(_ prices: PriceTable, merging: Bool = false) async {
        if merging {
            await state.patchPrices(PricePatch(prices: prices.prices, coins: prices.coins))
        } else {
            await state.setPrices(prices)
        }
    }

    /// Adds a fault; faults are tried in the order added.
    public func addFault(_ fault: Fault) async throws {
        try await state.addFault(fault)
    }

    /// Adds a fault on `path` (exact, or a prefix ending in `*`).
    public func addFault(_ kind: FaultKind, at path: String, times: Int? = nil) async throws {
        try await state.addFault(Fault(kind, at: path, times: times))
    }

    /// Removes every fault.
    public func clearFaults() async {
        await state.clearFaults()
    }

    /// The faults still active.
    public func faults() async -> [Fault] {
        await state.activeFaults
    }

    /// Every recorded request since start or the last reset, oldest first.
    public func requests() async -> [RequestRecord] {
        await state.requests
    }

    /// The recorded requests whose path starts with `prefix`.
    public func requests(matching prefix: String) async -> [RequestRecord] {
        await state.requests.filter { $0.path.hasPrefix(prefix) }
    }

    /// Empties the request log.
    public func resetRequests() async {
        await state.resetRequests()
    }
}
