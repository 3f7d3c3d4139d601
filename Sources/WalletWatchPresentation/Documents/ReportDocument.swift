import WalletWatchCore
import WalletWatchEngine

/// The JSON shape of `walletwatch report` (CLI.md): money in the report currency's minor
/// units, `average_cost` in minor units per one major unit of the asset, `twr` and
/// `achievement_rate` as fractions; null where a figure is unknown for want of a rate.
public enum ReportDocument {
    /// Which value timeline to add (`report --timeline`).
    public enum Timeline: String, CaseIterable, Sendable {
        /// A point at every transaction or rate date, and now.
        case events
        /// A point at the end of every UTC day, through now.
        case daily
    }

    public static func json(_ report: PortfolioReport, timeline: Timeline? = nil) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("currency", .string(report.currency.code)),
            .init("as_of", .string(report.now.iso8601)),
            .init("assets", .array(report.assets.map(asset))),
            .init("total", .object([
                "value": .int(report.total.value),
                "cost_basis": .int(report.total.costBasis),
                "unrealized_gain": .int(report.total.unrealizedGain),
                "realized_gain": .int(report.total.realizedGain),
                "twr": Fraction.json(report.total.timeWeightedReturn),
            ])),
            .init("goals", .array(report.goals.map(goal))),
        ]
        if let timeline {
            let points = timeline == .events ? report.eventTimeline() : report.dailyTimeline()
            members.append(.init("timeline", .array(points.map { point(report, $0) })))
        }
        return .object(members)
    }

    static func asset(_ line: PortfolioReport.AssetLine) -> JSONValue {
        let figures = line.figures
        return .object([
            "name": .string(line.asset.name),
            "asset_currency": .string(line.asset.currency.code),
            "quantity": .int(figures.quantity),
            "value": .int(figures.value),
            "average_cost": .int(figures.averageCost),
            "cost_basis": .int(figures.costBasis),
            "unrealized_gain": .int(figures.unrealizedGain),
            "realized_gain": .int(figures.realizedGain),
            "twr": Fraction.json(figures.timeWeightedReturn),
            "missing_rate": figures.missingPrice.map { .object(["pair": .string($0.pair.description), "date": .string($0.instant.iso8601)]) } ?? .null,
        ])
    }

    static func goal(_ line: PortfolioReport.GoalLine) -> JSONValue {
        .object([
            "goal": .string(line.goal.name),
            "achievement_rate": Fraction.json(line.progress.achievementRate),
            "distance": .int(line.progress.distance),
            "reached": .bool(line.progress.reached),
            "currency": .string(line.goal.currency.code),
            "target": .int(line.goal.target),
            "funded": .int(line.progress.funded),
            "distance_display": .int(line.distanceDisplay),
            "status": .string(line.goal.status.rawValue),
            "missing_rates": .array(line.progress.missingRates.map { .string($0.description) }),
        ])
    }

    static func point(_ report: PortfolioReport, _ point: ValueTimeline.Point) -> JSONValue {
        .object([
            "date": .string(point.instant.iso8601),
            "value": .int(point.total),
            "assets": .array(zip(report.assets, zip(point.quantities, point.values)).map { line, figures in
                .object(["name": .string(line.asset.name), "quantity": .int(figures.0), "value": .int(figures.1)])
            }),
        ])
    }
}
