import Foundation
import Testing
import TestSupport

/// A folder with a config of static rates and a database written through the command line,
/// with rows in everything `check` looks at: two manual assets (one shared by two goals, one
/// dedicated to a goal, so that a deposit is allocated by Rule 1), the allocation history, a
/// setting, and a month started and completed (its figures and their digest frozen).
///
/// The 14 commands that write it run once per `extraConfig` in the test process (see
/// ``FolderTemplates``); each ledger is a byte-for-byte copy of that folder in a folder of its
/// own, so a test changes only its own database.
final class LedgerFolder: Sendable {
    let folder = TemporaryDirectory("walletwatch-ledger")

    var database: String { folder.file("walletwatch.sqlite") }

    func cli(_ now: String = "2026-12-01T10:00:00Z") -> CLIRunner { CLIRunner(folder: folder, now: now) }

    init(extraConfig: String = "") async throws {
        try await FolderTemplates.shared.snapshot("ledger \(extraConfig)") { folder in
            try await Self.build(in: folder, extraConfig: extraConfig)
        }.write(into: folder)
    }

    /// Writes the ledger into `folder` through the built binary, as a user would.
    private static func build(in folder: TemporaryDirectory, extraConfig: String) async throws {
        func cli(_ now: String) -> CLIRunner { CLIRunner(folder: folder, now: now) }
        folder.write("walletwatch.toml", """
            [rates]
            provider = "static"
            currencies = ["USD", "EUR"]
            [rates.static]
            "BTC/USD" = "65000"
            "BTC/EUR" = "60000"
            \(extraConfig)
            """)
        chmod(folder.file("walletwatch.toml"), 0o600)
        let steps: [(String, [String])] = [
            ("2026-11-01T08:00:00Z", ["settings", "set", "time_zone", "Europe/Berlin"]),
            ("2026-11-01T08:00:00Z", ["asset", "add", "Cash", "--currency", "USD"]),
            ("2026-11-01T08:00:00Z", ["asset", "add", "Stack", "--currency", "BTC"]),
            ("2026-11-01T08:00:00Z", ["goal", "add", "House", "--currency", "USD", "--target", "10000", "--deadline", "2027-06-30"]),
            ("2026-11-01T08:00:00Z", ["goal", "add", "Trip", "--currency", "EUR", "--target", "2000", "--deadline", "2026-12-31"]),
            ("2026-11-01T08:00:00Z", ["tx", "add", "Cash", "1000", "--date", "2026-10-15T00:00:00Z"]),
            ("2026-11-01T08:00:00Z", ["tx", "add", "Cash", "-100", "--date", "2026-10-20T00:00:00Z", "--note", "groceries"]),
            ("2026-11-01T08:00:00Z", ["tx", "add", "Stack", "0.1", "--date", "2026-10-15T00:00:00Z"]),
            ("2026-11-01T08:00:00Z", ["allocate", "Cash", "House=500", "Trip=300"]),
            ("2026-11-01T08:00:00Z", ["allocate", "Stack", "House=100%"]),
            ("2026-11-02T08:00:00Z", ["month", "start"]),
            ("2026-11-09T08:00:00Z", ["tx", "add", "Stack", "0.01"]),
            ("2026-11-10T08:00:00Z", ["allocate", "Cash", "House=450", "Trip=400"]),
            ("2026-11-30T20:00:00Z", ["month", "complete"]),
        ]
        for (now, arguments) in steps {
            let result = try await cli(now).run(arguments)
            // Thrown, not only expected: every test that would copy the ledger fails with it.
            guard result.status == 0 else { throw SetupCommandError(arguments: arguments, result: result) }
        }
    }

    /// The txid of the Stack deposit that Rule 1 allocated.
    func rule1Txid() async throws -> String {
        try await sqlite(database, "SELECT txid FROM allocation_history WHERE reason = 'rule1'")
    }
}
