import WalletWatchCore
import WalletWatchEngine

/// The JSON shapes of assets (CLI.md: `asset list`, `asset show`).
public enum AssetDocument {
    /// One asset as `asset list` prints it.
    public static func listItem(_ overview: AssetOverview, now: Instant) -> JSONValue {
        let asset = overview.asset
        return .object([
            "name": .string(asset.name),
            "currency": .string(asset.currency.code),
            "kind": .string(asset.kind.rawValue),
            "source": .string(asset.source),
            "balance": .int(overview.balance.counted),
            "pending": .int(overview.balance.pending),
            "allocated": .int(overview.summary.allocated),
            "unallocated": .int(overview.summary.unallocated),
            "last_updated": .string(overview.balance.lastUpdated?.iso8601),
        ])
    }

    /// One asset as `asset show` prints it: balance, allocated, unallocated, shortfall and the
    /// allocations with amount and percent of the balance.
    public static func detail(_ overview: AssetOverview) -> JSONValue {
        let summary = overview.summary
        let allocations: [JSONValue] = overview.allocations.map { allocation in
            .object([
                "goal": .string(allocation.goal.name),
                "amount": .int(allocation.amount),
                "percent": summary.percentHundredths(of: allocation.amount).map { .number(Fraction.text(Int128($0), 100)) } ?? .null,
                "goal_status": .string(allocation.goal.status.rawValue),
                "funded": .int(summary.funded[allocation.goal.id!] ?? 0),
            ])
        }
        return .object([
            "name": .string(overview.asset.name),
            "currency": .string(overview.asset.currency.code),
            "kind": .string(overview.asset.kind.rawValue),
            "balance": .int(summary.balance),
            "allocated": .int(summary.allocated),
            "unallocated": .int(summary.unallocated),
            "shortfall": .int(summary.shortfall),
            "spent": .int(summary.spent),
            "pending": .int(overview.balance.pending),
            "source": .string(overview.asset.source),
            "allocations": .array(allocations),
        ])
    }
}
