import WalletWatchCore
import WalletWatchEngine

/// The JSON shape of `walletwatch balance` (CLI.md).
public enum BalanceDocument {
    public static func json(_ report: BalanceReport) -> JSONValue {
        let statusBySource = Dictionary(uniqueKeysWithValues: report.sources.map { ($0.source.name, $0) })
        let assets: [JSONValue] = report.assets.map { overview in
            let asset = overview.asset
            let status = asset.source.flatMap { statusBySource[$0] }
            let updated = overview.balance.lastUpdated
            return .object([
                "name": .string(asset.name),
                "currency": .string(asset.currency.code),
                "kind": .string(asset.kind.rawValue),
                "source": .string(asset.source),
                "balance": .int(overview.balance.counted),
                "pending": .int(overview.balance.pending),
                "last_updated": .string(updated?.iso8601),
                "age_seconds": .int(updated.map { max(0, report.now.seconds(since: $0)) }),
                "stale": .bool(status?.stale ?? false),
                "from_cache": .bool(status?.fromCache ?? false),
            ])
        }
        let sources: [JSONValue] = report.sources.map { status in
            .object([
                "name": .string(status.source.name),
                "ark": status.ark.map { ark($0.balance) } ?? .null,
                "onchain": status.onchain.map { onchain($0.balance) } ?? .null,
            ])
        }
        return .object(["assets": .array(assets), "sources": .array(sources)])
    }

    /// barkd's `Balance`, with barkd's field names.
    static func ark(_ balance: ArkBalance) -> JSONValue {
        .object([
            "spendable_sat": .int(balance.spendable),
            "pending_lightning_send_sat": .int(balance.pendingLightningSend),
            "claimable_lightning_receive_sat": .int(balance.claimableLightningReceive),
            "pending_in_round_sat": .int(balance.pendingInRound),
            "pending_exit_sat": .int(balance.pendingExit),
            "pending_board_sat": .int(balance.pendingBoard),
        ])
    }

    /// barkd's `OnchainBalance`, with barkd's field names.
    static func onchain(_ balance: OnchainBalance) -> JSONValue {
        .object([
            "total_sat": .int(balance.total),
            "trusted_spendable_sat": .int(balance.trustedSpendable),
            "immature_sat": .int(balance.immature),
            "trusted_pending_sat": .int(balance.trustedPending),
            "untrusted_pending_sat": .int(balance.untrustedPending),
            "confirmed_sat": .int(balance.confirmed),
        ])
    }
}
