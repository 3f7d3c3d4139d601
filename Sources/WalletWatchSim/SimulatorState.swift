/// All mutable state of a running simulator, behind one actor: wallets, the chain, prices,
/// faults, the request logs and the long-poll waiters.
actor SimulatorState {
    let clock: SimClock
    let longPollSeconds: Double
    let referenceTime: SimTime
    /// The scenario's `bitcoin` section: set when the chain is real (Electrum and Core faces).
    let bitcoin: BitcoinScenario?
    private var wallets: [String: WalletState] = [:]
    /// The chain every face serves (see `SimulatorState+Chain.swift`).
    var chain: SimulatedChain
    /// The HD wallets of the scenario, by name (see `SimulatorState+HD.swift`).
    var hdWallets: [String: SimulatedHDWallet] = [:]
    private(set) var prices: PriceTable
    private var faults = FaultList<Fault>()
    private var log: [RequestRecord] = []
    /// The Electrum face's faults and request log (see `SimulatorState+Electrum.swift`).
    var electrumFaults = FaultList<ElectrumFault>()
    var electrumLog: [ElectrumRequestRecord] = []
    /// The EVM chain and its face's faults and request log (see `SimulatorState+EVM.swift`); nil
    /// without an `evm` section.
    var evm: EVMFace?
    /// Where a real chain's faces listen, once they do.
    private(set) var endpoints: BitcoinEndpoints?
    /// Requests to the simulated APIs being answered right now.
    private var answering = 0
    private var waiters: [Int: Waiter] = [:]
    var nextWaiterID = 0
    /// The Electrum connections waiting for chain changes, by id.
    var chainWatchers: [Int: AsyncStream<Void>.Continuation] = [:]
    /// The Arkade faces' server, wallets and faults (see `SimulatorState+Arkade.swift`).
    var arkade: ArkadeWorld
    /// The Arkade streams open now, by id.
    var arkadeStreams: [Int: ArkadeStreamSink] = [:]
    var nextArkadeStream = 0
    /// Set by ``Simulator/stop()``: long polls and slow faults end at once.
    private(set) var isStopping = false

    /// The request log keeps the newest entries up to this many.
    static let logLimit = 200_000

    private struct Waiter {
        /// The wallet whose notifications it waits for; nil for one waiting for the stop only.
        let wallet: String?
        let continuation: CheckedContinuation<Void, Never>
    }

    init(scenario: Scenario) throws {
        guard scenario.longPollSeconds >= 0 else { throw SimulatorError(.invalid, "long_poll_seconds must be >= 0") }
        clock = SimClock(startingAt: scenario.now)
        longPollSeconds = scenario.longPollSeconds
        referenceTime = scenario.referenceTime
        bitcoin = scenario.bitcoin
        prices = scenario.prices
        arkade = try ArkadeWorld(scenario: scenario.arkade, now: scenario.now ?? scenario.referenceTime)
        chain = try SimulatedChain(
            network: try scenario.bitcoin?.chainNetwork() ?? .bitcoin, isReal: scenario.bitcoin != nil, tip: scenario.tipHeight,
            chainTime: ChainTime(anchorHeight: scenario.tipHeight, anchorTime: scenario.referenceTime))
        for walletScenario in scenario.wallets {
            guard wallets[walletScenario.name] == nil else {
                throw SimulatorError(.conflict, "two wallets named \(walletScenario.name)")
            }
            wallets[walletScenario.name] = try WalletState(walletScenario, referenceTime: scenario.referenceTime)
        }
        for generated in scenario.esplora.generated {
            try chain.addGenerator(generated)
        }
        for transaction in scenario.esplora.transactions {
            try chain.add(transaction)
        }
        for hd in scenario.esplora.hdWallets {
            guard hdWallets[hd.name] == nil else { throw SimulatorError(.conflict, "two HD wallets named \(hd.name)") }
            hdWallets[hd.name] = try chain.addHistory(of: hd)
        }
        for payment in scenario.esplora.payments {
            try chain.pay([EsploraTxIO(address: payment.address, value: payment.value)], height: payment.blockHeight, fee: payment.fee)
        }
        evm = try scenario.evm.map { try EVMFace(scenario: $0, referenceTime: scenario.referenceTime) }
    }

    var now: SimTime { clock.now() }

    func setEndpoints(_ endpoints: BitcoinEndpoints) { self.endpoints = endpoints }

    /// The chain tip Esplora and every wallet without its own tip report.
    var chainTip: Int { chain.tip }

    // MARK: reading

    func wallet(_ name: String) -> WalletState? { wallets[name] }

    var walletNames: [String] { wallets.keys.sorted() }

    /// Keeps the generated history's balance contribution once a route has computed it.
    func cacheGeneratedSum(_ sum: BalanceSum, for name: String) {
        wallets[name]?.generatedSum = sum
    }

    func tipHeight(of name: String) throws -> Int { try existingWallet(name).tipHeight ?? chainTip }

    func addressHistory(_ address: String) -> AddressHistory { chain.esplora.history(of: address) }

    /// The history of the address whose script has Esplora key `scripthash` (an empty one for a
    /// script the chain has never seen, as electrs answers).
    func scripthashHistory(_ scripthash: String) -> AddressHistory {
        guard let address = chain.esplora.address(ofScripthash: scripthash) else {
            return AddressHistory(address: "", mempool: [], confirmed: [], generator: nil)
        }
        return chain.esplora.history(of: address)
    }

    func esploraTransaction(_ txid: String) -> EsploraTxSpec? { chain.esplora.lookup(txid) }

    // MARK: notifications

    func notifications(of name: String, since: SimTime?) throws -> [TimedNotification] {
        try existingWallet(name).notifications(since: since)
    }

    /// Returns as soon as the wallet has a notification after `since` (at once if it already
    /// has one), when the simulator stops, or when the calling task is cancelled. Checking and
    /// registering in one actor turn means a push can never slip in between and be missed.
    func waitForNotification(of name: String, since: SimTime?) async {
        guard !isStopping, let wallet = wallets[name], wallet.notifications(since: since).isEmpty else { return }
        await park(wallet: name)
    }

    /// Sleeps for `duration`, or less when the simulator stops first (a slow fault must not
    /// hold up a stop).
    nonisolated func pause(for duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { await self.untilStopping() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Wakes every long poll and slow fault, and keeps new ones from waiting: the server is
    /// about to close its connections and must not wait for them.
    func beginStopping() {
        isStopping = true
        let parked = waiters.values
        waiters.removeAll()
        for waiter in parked { waiter.continuation.resume() }
        let watchers = chainWatchers.values
        chainWatchers.removeAll()
        for watcher in watchers { watcher.finish() }
        finishArkadeStreams()
    }

    private func untilStopping() async {
        guard !isStopping else { return }
        await park(wallet: nil)
    }

    private func park(wallet: String?) async {
        let id = nextWaiterID
        nextWaiterID += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = Waiter(wallet: wallet, continuation: continuation)
                }
            }
        } onCancel: {
            Task { await self.wake(id) }
        }
    }

    private func wake(_ id: Int) {
        waiters.removeValue(forKey: id)?.continuation.resume()
    }

    private func notify(_ notification: BarkdNotification, in name: String) {
        guard var wallet = wallets[name] else { return }
        _ = wallet.push(notification, now: clock.now())
        wallets[name] = wallet
        for (id, waiter) in waiters where waiter.wallet == name {
            waiters.removeValue(forKey: id)
            waiter.continuation.resume()
        }
    }

    // MARK: barkd mutations

    func addMovement(_ movement: BarkdMovement, to name: String) throws -> BarkdMovement {
        var wallet = try existingWallet(name)
        var movement = movement
        if movement.id == 0 { movement.id = wallet.nextMovementID }
        guard wallet.movement(id: movement.id) == nil else {
            throw SimulatorError(.conflict, "wallet \(name) already has movement \(movement.id)")
        }
        try wallet.validate(movement)
        wallet.store(movement)
        wallets[name] = wallet
        notify(.movementCreated(movement), in: name)
        return movement
    }

    func updateMovement(id: Int, in name: String, _ update: MovementUpdate) throws -> BarkdMovement {
        var wallet = try existingWallet(name)
        guard let current = wallet.movement(id: id) else {
            throw SimulatorError(.notFound, "wallet \(name) has no movement \(id)")
        }
        let updated = update.applied(to: current, now: clock.now())
        try wallet.validate(updated)
        wallet.store(updated)
        wallets[name] = wallet
        notify(.movementUpdated(updated), in: name)
        return updated
    }

    func modifyWallet(_ name: String, _ change: @Sendable (inout WalletState) throws -> Void) throws {
        var wallet = try existingWallet(name)
        try change(&wallet)
        wallets[name] = wallet
    }


    func addOnchainTransaction(_ transaction: BarkdWalletTx, to name: String) throws {
        try modifyWallet(name) { wallet in
            guard !wallet.onchainTransactions.contains(where: { $0.txid == transaction.txid }) else {
                throw SimulatorError(.conflict, "wallet \(name) already has on-chain transaction \(transaction.txid)")
            }
            wallet.onchainTransactions.append(transaction)
        }
    }

    func confirmOnchainTransaction(_ txid: String, in name: String, at block: BarkdBlockRef) throws {
        try modifyWallet(name) { wallet in
            guard let index = wallet.onchainTransactions.firstIndex(where: { $0.txid == txid }) else {
                throw SimulatorError(.notFound, "wallet \(name) has no on-chain transaction \(txid)")
            }
            wallet.onchainTransactions[index].confirmation = block
            wallet.onchainTransactions = WalletState.chainOrdered(wallet.onchainTransactions)
        }
        if block.height > chainTip { try setChainTip(block.height) }
    }

    // MARK: prices

    func setPrices(_ table: PriceTable) {
        prices = table
    }

    func patchPrices(_ patch: PricePatch) {
        prices = prices.merged(with: patch)
    }

    // MARK: faults and the request log

    func addFault(_ fault: Fault) throws { try faults.add(fault) }

    func clearFaults() { faults.clear() }

    var activeFaults: [Fault] { faults.faults }

    /// The first fault that matches `path`, counting it as served.
    func takeFault(for path: String) -> FaultKind? { faults.take(for: path) }

    /// Counts a request being answered; returns how many are, this one included.
    func beginAnswering() -> Int {
        answering += 1
        return answering
    }

    func endAnswering() { answering -= 1 }

    func record(_ request: RequestRecord) {
        if log.count >= SimulatorState.logLimit { log.removeFirst(log.count / 10) }
        log.append(request)
    }

    var requests: [RequestRecord] { log }

    func resetRequests() { log.removeAll() }

    private func existingWallet(_ name: String) throws -> WalletState {
        guard let wallet = wallets[name] else { throw SimulatorError(.notFound, "no wallet named \(name)") }
        return wallet
    }
}
