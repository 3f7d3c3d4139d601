import WalletWatchCore
import WalletWatchStore

/// One goal's line of a month's plan.
public struct PlanLine: Hashable, Sendable {
    public let goal: Goal
    public let plan: Planner.Plan
    public var planned: Int128 { plan.planned }
    /// The pairs (an asset's currency to the goal's) whose share of the goal could not be
    /// converted (no rate): `required` counts them as nothing, so it is an upper bound until a
    /// rate is known.
    public var missingRates: [CurrencyPair] = []
}
