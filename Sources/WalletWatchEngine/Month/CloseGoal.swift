import WalletWatchCore
import WalletWatchStore

/// What "add to close month" suggests for a goal (SPEC.md section 12).
public struct CloseGoalSuggestion: Sendable {
    public enum Action: String, Sendable {
        /// Put money into the asset (it is dedicated to the goal).
        case deposit
        /// Raise the goal's target on a shared asset.
        case allocate
        /// Nothing is left to close.
        case none
    }

    public let goal: String
    public let currency: Currency
    /// Left to close the month, in the goal's currency.
    public let remaining: Int128
    public let remainingDisplay: Int128?
    public let displayCurrency: Currency
    /// The time of the rate used for the display amount.
    public let rateTime: Instant?
    public let action: Action
    public let asset: String?
    /// The currency of `amount`: the asset's, or the goal's when no rate was known.
    public let amountCurrency: Currency?
    /// What to deposit or add to the target.
    public let amount: Int128?
    /// The asset's targets after an `allocate`, this goal first, the rest alphabetically.
    public let allocations: [(goal: String, amount: Int128)]?
    /// The allocation was cut to the asset's unallocated balance.
    public let clamped: Bool
    public let warning: String?
    /// True when `--apply` carried it out.
    public let applied: Bool
}

/// "Add to close month" (SPEC.md section 12): what closes the executing month for a goal, as
/// a deposit on an asset dedicated to it or a higher target on a shared one, and, when asked,
/// carrying it out.
public struct CloseGoal: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let month: MonthService
    let rates: RateBook

    init(database: AppDatabase, clock: WallClock, month: MonthService, rates: RateBook) {
        self.database = database
        self.clock = clock
        self.month = month
        self.rates = rates
    }

    /// Computes (and with `apply`, carries out) what closes the month for a goal.
    public func suggest(_ name: String, asset assetName: String?, apply: Bool) async throws -> CloseGoalSuggestion {
        let month = try self.month.defaultMonth()
        let status = try await self.month.status(month: month)
        guard status.state == .executing else {
            throw Refusal("\(month) is \(status.state.rawValue), not executing: \(status.state == .draft ? "start it with `walletwatch month start`" : "it is closed")")
        }
        let goal = try database.goal(named: name)
        guard let line = status.goals.first(where: { $0.goalID == goal.id }) else {
            throw Refusal("goal '\(goal.name)' is not part of \(month)'s plan (it was added after the month started)")
        }
        let display = status.displayCurrency
        let rates = await self.rates.current(for: [CurrencyPair(base: goal.currency, quote: display)])
        let displayQuote = rates.table.quote(from: goal.currency, to: display)
        let remaining = line.figures.remaining
        let remainingDisplay = displayQuote.flatMap { RateTable.convert(Money(minorUnits: remaining, currency: goal.currency), to: display, quote: $0)?.minorUnits }
        var warnings: [String] = rates.warnings
        if displayQuote == nil { warnings.append("no exchange rate \(goal.currency.code)/\(display.code): the amounts stay in \(goal.currency.code)") }

        let suggestion = { (asset: String?, action: CloseGoalSuggestion.Action, amount: Int128?, currency: Currency?,
                            allocations: [(goal: String, amount: Int128)]?, clamped: Bool, applied: Bool) in
            CloseGoalSuggestion(goal: goal.name, currency: goal.currency, remaining: remaining, remainingDisplay: remainingDisplay,
                                displayCurrency: display, rateTime: displayQuote?.asOf, action: action, asset: asset,
                                amountCurrency: currency, amount: amount, allocations: allocations, clamped: clamped,
                                warning: warnings.isEmpty ? nil : warnings.joined(separator: "; "), applied: applied)
        }
        // Closed needs no asset: a goal funded by several needs no --asset to say so.
        guard remaining > 0 else {
            warnings.append("month closed for this goal")
            let named = try assetName.map { try database.assetOverview(named: $0).asset.name }
            return suggestion(named, .none, nil, nil, nil, false, false)
        }
        let overview = try chooseAsset(for: goal, named: assetName)
        let base = { (action: CloseGoalSuggestion.Action, amount: Int128?, currency: Currency?, allocations: [(goal: String, amount: Int128)]?, clamped: Bool, applied: Bool) in
            suggestion(overview.asset.name, action, amount, currency, allocations, clamped, applied)
        }

        // The amount in the asset's currency; without a rate it stays in the goal's.
        let assetRates = await self.rates.current(for: [CurrencyPair(base: goal.currency, quote: overview.asset.currency)])
        var amountCurrency = overview.asset.currency
        var amount: Int128
        if let converted = assetRates.table.convert(Money(minorUnits: remaining, currency: goal.currency), to: overview.asset.currency) {
            amount = converted.minorUnits
        } else {
            amountCurrency = goal.currency
            amount = remaining
            warnings.append("no exchange rate \(goal.currency.code)/\(overview.asset.currency.code): the amount stays in \(goal.currency.code)")
        }
        // Dedicated as Rule 1 sees it (the goal's target covers the whole balance), so that the
        // deposit does reach the goal once confirmed. An asset holding only part of its balance
        // for the goal, or none, gets its target raised from the unallocated balance instead.
        let targets = overview.allocations.map { Rule1.Allocation(goalID: $0.goal.id!, goalStatus: $0.goal.status, amount: $0.amount) }
        let dedicated = Rule1.dedicatedGoal(allocations: targets, balanceBefore: overview.balance.counted)?.goalID == goal.id
        if dedicated {
            var applied = false
            if apply {
                guard overview.asset.kind == .manual else {
                    throw Refusal("'\(overview.asset.name)' is fed by source '\(overview.asset.source ?? "?")': send \(Money(minorUnits: amount, currency: amountCurrency)) to that wallet; --apply records deposits on manual assets only")
                }
                guard amountCurrency == overview.asset.currency else {
                    throw Refusal("without a \(goal.currency.code)/\(overview.asset.currency.code) rate the deposit cannot be recorded in \(overview.asset.currency.code); refresh rates first")
                }
                _ = try database.addManualTransaction(assetName: overview.asset.name, amount: Money(minorUnits: amount, currency: amountCurrency).majorString,
                                                      date: nil, note: "add to close \(month) for \(goal.name)", now: clock.now)
                applied = true
            }
            return base(.deposit, amount, amountCurrency, nil, false, applied)
        }

        var clamped = false
        if amountCurrency == overview.asset.currency, amount > overview.summary.unallocated {
            warnings.append("only \(Money(minorUnits: overview.summary.unallocated, currency: amountCurrency)) of '\(overview.asset.name)' is unallocated; the allocation is cut to that, \(Money(minorUnits: amount - overview.summary.unallocated, currency: amountCurrency)) short")
            amount = overview.summary.unallocated
            clamped = true
        }
        let current = overview.allocations.first { $0.goal.id == goal.id }?.amount ?? 0
        var raised = current + amount
        let others = overview.allocations.filter { $0.goal.id != goal.id && $0.goal.status == .active }
            .sorted { $0.goal.name.lowercased() < $1.goal.name.lowercased() }
            .map { (goal: $0.goal.name, amount: $0.amount) }
        var applied = false
        if apply {
            guard amountCurrency == overview.asset.currency else {
                throw Refusal("without a \(goal.currency.code)/\(overview.asset.currency.code) rate the target cannot be raised; refresh rates first")
            }
            if amount > 0 {
                // Raised by the amount inside one write: the target as it is then, not as read above.
                raised = try database.raiseTarget(assetID: overview.asset.id!, goalID: goal.id!, by: amount, now: clock.now)
                applied = true
            }
        }
        return base(.allocate, amount, amountCurrency, [(goal.name, raised)] + others, clamped, applied)
    }

    /// The asset named, or the only asset holding the goal's target.
    private func chooseAsset(for goal: Goal, named name: String?) throws -> AssetOverview {
        if let name { return try database.assetOverview(named: name) }
        let holding = try database.assetOverviews().filter { overview in overview.allocations.contains { $0.goal.id == goal.id } }
        guard holding.count == 1, let only = holding.first else {
            throw Refusal(holding.isEmpty
                ? "no asset holds a target for goal '\(goal.name)'; choose one with --asset"
                : "goal '\(goal.name)' is funded by several assets (\(holding.map(\.asset.name).joined(separator: ", "))); choose one with --asset")
        }
        return only
    }
}
