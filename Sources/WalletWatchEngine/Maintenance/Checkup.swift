import WalletWatchCore
import WalletWatchStore

/// `walletwatch check` (SPEC.md section 20): SQLite's integrity and foreign-key checks, and
/// walletwatch's own invariants. The store reads everything in one snapshot and checks what SQL
/// can tell; the ledger rule of manual assets is Core's, the same one `tx add` enforces.
public struct Checkup: Sendable {
    let database: AppDatabase

    init(database: AppDatabase) {
        self.database = database
    }

    /// Every problem found, in the order of the checks; empty when the database is sound.
    public func run() throws -> [CheckFinding] {
        let data = try database.checkup()
        var findings = data.findings
        for (asset, entries) in data.manualLedgers {
            guard let shortfall = ManualLedger.firstShortfall(entries) else { continue }
            findings.append(CheckFinding(check: "manual_balance", detail: """
                the manual asset '\(asset.name)' has a negative balance of \
                \(Money(minorUnits: shortfall.balance, currency: asset.currency)) at \(shortfall.date.iso8601), \
                at transaction \(shortfall.txid)
                """))
        }
        return findings
    }

    /// The names of the checks, in the order they run (what `check` says it looked at).
    public static let checks = ["integrity", "foreign_keys", "schema", "allocation_history", "rule1_once", "completed_months", "ingest_passes", "manual_balance"]
}
