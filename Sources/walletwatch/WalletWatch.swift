import ArgumentParser
import Foundation
import WalletWatchCore

/// Every command names itself (`commandName:`), subcommands too: ArgumentParser builds the whole
/// command tree before each run, and a command without a name is named by
/// `String(describing: Self.self)`, a runtime type lookup that cost a start of any command about
/// 15 ms for the 52 commands that had none (more than opening the database).
@main
struct WalletWatch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walletwatch",
        abstract: "Watch Bitcoin wallets and track savings goals month by month.",
        discussion: """
            walletwatch polls Ark wallets (barkd) and on-chain addresses (Esplora) into a local \
            SQLite database, lets you tag transactions, spread each wallet across savings goals, \
            and shows what each goal received this month and what is left to close it.

            Start with `walletwatch init`, then see `walletwatch help <command>`. \
            Global options (--config, --db) may come before or after the command. \
            Every command that prints data takes --json. Exit codes: 0 ok, 1 runtime failure, \
            64 usage error, 65 refused input.
            """,
        version: WalletWatchVersion.current,
        subcommands: [
            InitCommand.self,
            SourceCommand.self,
            IngestCommand.self,
            BalanceCommand.self,
            AssetCommand.self,
            TxCommand.self,
            GoalCommand.self,
            AllocateCommand.self,
            TagCommand.self,
            RatesCommand.self,
            CurrencyCommand.self,
            SettingsCommand.self,
            MonthCommand.self,
            SavingPlanCommand.self,
            ReportCommand.self,
            ExportCommand.self,
            RunCommand.self,
            ServeCommand.self,
            WatchCommand.self,
            BackupCommand.self,
            CheckCommand.self,
            DoctorCommand.self,
            NotifyCommand.self,
        ]
    )

    static func main() async {
        // A reader that closes its end of a pipe (`walletwatch tx list | head -1`) makes a write
        // fail with EPIPE, which StandardStream reports, instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        let arguments = GlobalOptions.hoist(Array(CommandLine.arguments.dropFirst()))
        LogSetup.bootstrap()
        MemoryTuning.apply()
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            Output.finish(ErrorReport.failure(error, command: self))
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch {
            Output.finish(ErrorReport.failure(error, command: self))
        }
        Output.finish(0)
    }
}
