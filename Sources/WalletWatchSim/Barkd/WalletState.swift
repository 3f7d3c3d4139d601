/// One simulated barkd wallet as it is right now. A value type: routes work on a copy taken
/// from the ``SimulatorState`` actor, so a long response never holds the actor.
struct WalletState: Sendable {
    let name: String
    let token: String?
    /// The Ark balance set by the scenario or the control API; nil = derived from the movements.
    var explicitBalance: BarkdBalance?
    /// The on-chain balance set by the scenario or the control API; nil = derived from the
    /// on-chain transactions.
    var explicitOnchainBalance: BarkdOnchainBalance?
    /// The stored movements' contribution to the derived balance, less that of the generated
    /// movements they replace.
    private(set) var storedSum = BalanceSum.zero
    /// The generated history's contribution, computed on first use (outside the actor: it
    /// walks every generated movement).
    var generatedSum: BalanceSum?
    var tipHeight: Int?
    /// Movements given by the scenario or the control API, ascending by id (including stored
    /// copies of generated movements that were updated).
    private(set) var storedMovements: [BarkdMovement]
    let generator: MovementGenerator?
    /// Set when the scenario asks for the generated history to be prerendered.
    let rendered: RenderedHistory?
    var onchainTransactions: [BarkdWalletTx]
    var vtxos: [BarkdVtxo]
    var utxos: [BarkdUtxo]
    var arkInfo: BarkdArkInfo
    /// barkd's notification buffer, oldest first, strictly increasing times.
    private(set) var notifications: [TimedNotification] = []

    /// How long barkd keeps notifications (NOTIFICATION_BUFFER_TTL_SECONDS).
    static let notificationTTLSeconds: Int64 = 600

    init(_ scenario: WalletScenario, referenceTime: SimTime) throws {
        guard !scenario.name.isEmpty,
              scenario.name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw SimulatorError(.invalid, "wallet name '\(scenario.name)' must be letters, digits, '-', '_' or '.'")
        }
        name = scenario.name
        token = scenario.token
        tipHeight = scenario.tipHeight
        generator = scenario.generatedMovements.map { MovementGenerator($0, referenceTime: referenceTime) }
        rendered = scenario.generatedMovements?.prerender == true ? RenderedHistory() : nil
        onchainTransactions = WalletState.chainOrdered(scenario.onchainTransactions)
        vtxos = scenario.vtxos
        utxos = scenario.utxos
        arkInfo = scenario.arkInfo
        storedMovements = []
        explicitBalance = scenario.balance
        explicitOnchainBalance = scenario.onchainBalance
        generatedSum = (generator?.count ?? 0) == 0 ? .zero : nil
        for movement in scenario.movements {
            var movement = movement
            if movement.id == 0 { movement.id = nextMovementID }
            guard storedIndex(of: movement.id) == nil else {
                throw SimulatorError(.conflict, "wallet \(name): two movements with id \(movement.id)")
            }
            try validate(movement)
            store(movement)
        }
    }

    /// The id the next new movement gets.
    var nextMovementID: Int { max(storedMovements.last?.id ?? 0, generator?.count ?? 0) + 1 }

    func isGenerated(_ id: Int) -> Bool { id >= 1 && id <= (generator?.count ?? 0) }

    func movement(id: Int) -> BarkdMovement? {
        if let index = storedIndex(of: id) { return storedMovements[index] }
        return isGenerated(id) ? generator?.movement(id: id) : nil
    }

    /// The history, newest first, optionally only movements involving one payment method.
    func history(filter: BarkdPaymentMethod?) -> HistoryStream {
        var stream = HistoryStream(stored: storedMovements, generator: generator, filter: filter)
        // Only the generated history alone stays the same from request to request.
        if filter == nil && storedMovements.isEmpty { stream.rendered = rendered }
        return stream
    }

    /// The on-chain balance served: the one set, or what the transactions add up to.
    var onchainBalance: BarkdOnchainBalance {
        explicitOnchainBalance ?? WalletState.derivedOnchainBalance(onchainTransactions)
    }

    /// The Ark balance when it can be given without walking a generated history.
    var balanceIfKnown: BarkdBalance? {
        if let explicitBalance { return explicitBalance }
        return generatedSum.map { (storedSum + $0).balance }
    }

    /// Stores a new movement or replaces the one with its id.
    mutating func store(_ movement: BarkdMovement) {
        storedSum = storedSum + BalanceSum.contribution(of: movement)
        if let index = storedIndex(of: movement.id) {
            storedSum = storedSum - BalanceSum.contribution(of: storedMovements[index])
            storedMovements[index] = movement
        } else {
            if isGenerated(movement.id), let replaced = generator?.movement(id: movement.id) {
                storedSum = storedSum - BalanceSum.contribution(of: replaced)
            }
            storedMovements.insert(movement, at: insertionIndex(for: movement.id))
        }
    }

    func validate(_ movement: BarkdMovement) throws {
        guard movement.id >= 1 else { throw SimulatorError(.invalid, "movement ids start at 1") }
        guard movement.offchainFeeSat >= 0 else { throw SimulatorError(.invalid, "offchain_fee_sat must be >= 0") }
        if let completed = movement.time.completedAt, completed < movement.time.createdAt {
            throw SimulatorError(.invalid, "movement \(movement.id): completed_at is before created_at")
        }
    }

    /// Appends a notification at `now`, or 1 ms after the previous one, so that `since`
    /// comparisons never lose or repeat one; drops those older than barkd's buffer keeps.
    mutating func push(_ notification: BarkdNotification, now: SimTime) -> TimedNotification {
        let time = notifications.last.map { max(now, $0.pushedAt.adding(milliseconds: 1)) } ?? now
        let expiry = now.adding(seconds: -WalletState.notificationTTLSeconds)
        notifications.removeAll { $0.pushedAt <= expiry }
        let timed = TimedNotification(pushedAt: time, notification: notification)
        notifications.append(timed)
        return timed
    }

    /// Notifications pushed after `since` (all of them when nil), oldest first.
    func notifications(since: SimTime?) -> [TimedNotification] {
        guard let since else { return notifications }
        return notifications.filter { $0.pushedAt > since }
    }

    private func storedIndex(of id: Int) -> Int? {
        let index = insertionIndex(for: id)
        return index < storedMovements.count && storedMovements[index].id == id ? index : nil
    }

    /// The first position whose id is not below `id` (binary search: ids are sorted).
    private func insertionIndex(for id: Int) -> Int {
        var low = 0
        var high = storedMovements.count
        while low < high {
            let mid = (low + high) / 2
            if storedMovements[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// What barkd would report after these movements.
    static func derivedBalance(_ history: HistoryStream) -> BarkdBalance {
        BalanceSum.total(of: history).balance
    }

    /// barkd's order, oldest first: confirmed ones by height, then the unconfirmed ones, each
    /// group in the order it was added.
    static func chainOrdered(_ transactions: [BarkdWalletTx]) -> [BarkdWalletTx] {
        transactions.enumerated().sorted { a, b in
            (a.element.confirmation?.height ?? Int.max, a.offset) < (b.element.confirmation?.height ?? Int.max, b.offset)
        }.map(\.element)
    }

    /// BDK's view after these transactions: confirmed ones count, unconfirmed incoming ones
    /// are untrusted pending, unconfirmed outgoing ones have already left.
    static func derivedOnchainBalance(_ transactions: [BarkdWalletTx]) -> BarkdOnchainBalance {
        var confirmed: Int64 = 0
        var untrusted: Int64 = 0
        for tx in transactions {
            if tx.confirmation != nil || tx.balanceChangeSat < 0 {
                confirmed += tx.balanceChangeSat
            } else {
                untrusted += tx.balanceChangeSat
            }
        }
        return BarkdOnchainBalance(confirmedSat: max(0, confirmed), untrustedPendingSat: untrusted)
    }
}
