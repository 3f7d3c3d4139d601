import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Find out why something does not work: config, database, sources, rates, file modes.",
        discussion: """
            Checks, one line each: the config parses; the database opens and can be written; \
            each source answers (down or unreachable, token refused, a wrong URL and an answer \
            that is not the source's API are each named as such), with the same client and \
            requests an ingest uses, once each and without retries; the rate provider answers \
            with a price for each configured currency; the backups are recent when the daemon \
            makes them; and the database, the config and every token file are private to their \
            owner (a file its group or others can read or change is a failure). It stores \
            nothing. It exits 1 when a check fails.

            Examples:
              walletwatch doctor
              walletwatch doctor --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        var checks: [DoctorCheck]
        let configFile = ConfigLoader.locate(explicit: global.config).path
        do {
            let config = try CommandContext.loadConfig(global)
            var limits = config.http
            // One question each: a retry would only hide how the source fails.
            limits.retries = 0
            let context = try CommandContext.open(config, http: limits)
            checks = await context.engine.doctor.run()
        } catch {
            checks = Doctor.cannotStart(error, configFile: configFile)
        }
        if output.json {
            Output.json(MaintenanceDocument.doctor(checks))
        } else {
            Output.lines(checks.map { "\($0.ok ? "ok  " : "FAIL") \($0.name): \($0.detail)" })
        }
        let failed = checks.filter { !$0.ok }
        guard failed.isEmpty else {
            Output.error("\(failed.count) check(s) failed: \(failed.map(\.name).joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
