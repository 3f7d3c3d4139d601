import GRDB
import WalletWatchCore

extension SourceArkBalance: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "ark_balances"

    public init(row: Row) throws {
        self.init(
            source: try row.decode(forColumn: "source"),
            balance: ArkBalance(
                spendable: try row.decode(forColumn: "spendable"),
                pendingLightningSend: try row.decode(forColumn: "pending_lightning_send"),
                claimableLightningReceive: try row.decode(forColumn: "claimable_lightning_receive"),
                pendingInRound: try row.decode(forColumn: "pending_in_round"),
                pendingExit: try row.decode(forColumn: "pending_exit"),
                pendingBoard: try row.decode(forColumn: "pending_board")),
            lastUpdated: try row.decode(forColumn: "last_updated"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["spendable"] = balance.spendable
        container["pending_lightning_send"] = balance.pendingLightningSend
        container["claimable_lightning_receive"] = balance.claimableLightningReceive
        container["pending_in_round"] = balance.pendingInRound
        container["pending_exit"] = balance.pendingExit
        container["pending_board"] = balance.pendingBoard
        container["last_updated"] = lastUpdated
    }
}

extension SourceOnchainBalance: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "onchain_balances"

    public init(row: Row) throws {
        self.init(
            source: try row.decode(forColumn: "source"),
            balance: OnchainBalance(
                total: try row.decode(forColumn: "total"),
                trustedSpendable: try row.decode(forColumn: "trusted_spendable"),
                immature: try row.decode(forColumn: "immature"),
                trustedPending: try row.decode(forColumn: "trusted_pending"),
                untrustedPending: try row.decode(forColumn: "untrusted_pending"),
                confirmed: try row.decode(forColumn: "confirmed")),
            lastUpdated: try row.decode(forColumn: "last_updated"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["source"] = source
        container["total"] = balance.total
        container["trusted_spendable"] = balance.trustedSpendable
        container["immature"] = balance.immature
        container["trusted_pending"] = balance.trustedPending
        container["untrusted_pending"] = balance.untrustedPending
        container["confirmed"] = balance.confirmed
        container["last_updated"] = lastUpdated
    }
}
