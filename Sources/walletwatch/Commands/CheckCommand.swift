import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the database: SQLite's own checks and walletwatch's invariants.",
        discussion: """
            Runs SQLite's integrity check and foreign-key check, then walletwatch's own rules: \
            the tables, indexes and triggers that guard the data are all there; each asset's \
            latest allocation-history row for a goal equals its current allocation; no manual \
            asset's balance is negative at any date; Rule 1 allocated each transaction at most \
            once; every completed month still matches the digest stored when it was \
            completed; and no ingest pass was left half-staged by a process that is gone or \
            that gave it up without room to clean up (a full disk): its rows are invisible, and \
            the finding names the command that removes them, `walletwatch ingest --source NAME` \
            (the next pass of that source, which the daemon also runs by itself). Each problem \
            is one line naming the check and the rows; the command then exits 1. It reads one consistent snapshot and changes nothing (a backup checked with \
            --db stays byte for byte as it was; a database of an older version is upgraded \
            first), so it can run beside the daemon.

            Examples:
              walletwatch check
              walletwatch --db backups/walletwatch-20261121T120000.000Z.sqlite check --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        // Opened for reading: checking a backup leaves it byte for byte as it was.
        let context = try CommandContext.load(global, readOnly: true)
        let findings = try context.engine.checkup.run()
        if output.json {
            Output.json(MaintenanceDocument.check(findings))
        } else if findings.isEmpty {
            Output.line("ok: \(Checkup.checks.joined(separator: ", ")) all hold for \(context.config.database)")
        } else {
            Output.lines(findings.map { "\($0.check): \($0.detail)" })
        }
        guard findings.isEmpty else {
            let checks = Set(findings.map(\.check))
            // A leftover pass is cleared by a command; only other problems call for a backup.
            let remedy = checks == ["ingest_passes"] ? "run the command each finding names"
                : "restore a backup that passes `walletwatch check`, or correct the rows named"
            Output.error("the database \(context.config.database) has \(findings.count) problem(s): \(checks.sorted().joined(separator: ", ")); \(remedy)")
            throw ExitCode(1)
        }
    }
}
