/// Each goal's funded value over time: at D, every asset's quantity at D shared among its
/// targets at D (the allocation history) as ``Funding`` shares it, converted to the goal's
/// currency at the rates at D.
public enum GoalTimeline {
    /// One allocation-history row.
    public struct TargetChange: Hashable, Sendable {
        public let assetID: Int64
        public let goalID: Int64
        public let amount: Int128
        public let timestamp: Instant
        public init(assetID: Int64, goalID: Int64, amount: Int128, timestamp: Instant) {
            self.assetID = assetID
            self.goalID = goalID
            self.amount = amount
            self.timestamp = timestamp
        }
    }

    /// The funded value of each goal (by id) at each of `instants`, in the goal's minor units;
    /// nil where an asset's share could not be converted (no rate at or before that instant).
    ///
    /// - parameter history: every allocation-history row, in time order (ties: in the order written).
    public static func funded(
        goals: [(id: Int64, currency: Currency)], assets: [PortfolioAsset], history: [TargetChange],
        rates: RateHistory, at instants: [Instant]
    ) -> [Int64: [Int128?]] {
        var result = Dictionary(uniqueKeysWithValues: goals.map { ($0.id, [Int128?]()) })
        var targets: [Int64: [Int64: Int128]] = [:]
        var nextChange = 0
        for (instant, quantities) in zip(instants, ValueTimeline.quantities(of: assets, at: instants)) {
            while nextChange < history.count, history[nextChange].timestamp <= instant {
                let change = history[nextChange]
                targets[change.assetID, default: [:]][change.goalID] = change.amount
                nextChange += 1
            }
            // Each goal's shares, summed per asset currency so each currency converts once.
            var shares: [Int64: [Currency: Int128]] = [:]
            for (index, asset) in assets.enumerated() {
                guard let assetTargets = targets[asset.id], !assetTargets.isEmpty else { continue }
                let goalIDs = assetTargets.keys.sorted()
                let funded = Funding.funded(balance: quantities[index], targets: goalIDs.map { assetTargets[$0]! })
                for (goalID, share) in zip(goalIDs, funded) {
                    shares[goalID, default: [:]][asset.currency, default: 0] += share
                }
            }
            for goal in goals {
                var total: Int128? = 0
                for (currency, amount) in shares[goal.id] ?? [:] where amount != 0 {
                    let converted = rates.quote(from: currency, to: goal.currency, at: instant).flatMap {
                        RateTable.convert(Money(minorUnits: amount, currency: currency), to: goal.currency, quote: $0)
                    }
                    total = total.flatMap { total in converted.map { total + $0.minorUnits } }
                }
                result[goal.id]!.append(total)
            }
        }
        return result
    }
}
