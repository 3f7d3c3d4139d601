import WalletWatchCore
import WalletWatchEngine

/// The JSON shape of a goal (CLI.md: `goal show`; `goal list` prints an array of them).
public enum GoalDocument {
    public static func json(_ overview: GoalOverview, progress: GoalProgress) -> JSONValue {
        let goal = overview.goal
        return .object([
            "name": .string(goal.name),
            "currency": .string(goal.currency.code),
            "target": .int(goal.target),
            "funded": .int(progress.funded),
            "progress": Fraction.json(progress.achievementRate),
            "status": .string(goal.status.rawValue),
            "deadline": .string(goal.deadline?.description),
            "distance": .int(progress.distance),
            "reached": .bool(progress.reached),
            "missing_rates": .array(progress.missingRates.map { .string($0.description) }),
            "assets": .array(overview.shares.map { share in
                .object([
                    "asset": .string(share.asset.name),
                    "asset_currency": .string(share.asset.currency.code),
                    "allocated": .int(share.allocated),
                    "funded": .int(share.funded),
                ])
            }),
        ])
    }
}
