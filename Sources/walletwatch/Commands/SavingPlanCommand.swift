import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct SavingPlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saving-plan",
        abstract: "Regular saving plans: an amount for a goal on every due date, recorded or reminded.",
        discussion: """
            A plan puts AMOUNT into an asset for a goal every day, week or month from its start date. An automatic plan (manual assets only: cash, a bank account with a standing order) records the deposit itself on each due date, dated that day, and Rule 1 allocates it as it would a `tx add`. A reminder plan (the default, and the only kind for a wallet) sends the `plan.due` webhook on the due date and then watches the asset: the due date is fulfilled when confirmed deposits of at least the amount arrive within 7 days (each deposit counts for one due date only; in another currency it is valued at its date), and missed when they do not.

            Due dates are UTC days. A monthly plan started on the 29th, 30th or 31st falls due on the last day of shorter months and returns to its day afterwards. Plans are brought up to date by the daemon (every minute and after each ingest), by `walletwatch ingest`, and by `saving-plan add` and `list`; a date missed while nothing ran is caught up once, never twice.

            Examples:
              walletwatch saving-plan add Rent --goal House --asset Cash --amount 250 \\
                --method automatic
              walletwatch saving-plan add Stack --goal House --asset "Ark wallet" \\
                --amount 50 --currency EUR --every week
              walletwatch saving-plan list --json
              walletwatch saving-plan delete Stack
            """,
        subcommands: [Add.self, List.self, Delete.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a regular saving plan.",
            discussion: """
                AMOUNT is in major units of the plan's currency (250, 0.001, or 150000sat for BTC); the currency is the asset's unless --currency names another: an automatic plan of 100 USD into an ETH asset records amount / price on each due date, in wei, rounded half to even once (the price of that day, else the latest before it; a date without any waits, with a warning, until `rates backfill`, `rates set` or `rates import` brings one). --every defaults to month, --start (the first due date) to today, --method to reminder: an automatic plan writes into the ledger on its own, so it is never chosen for you. A start date in the past is caught up at once: an automatic plan records each due date since, a reminder plan decides each from the deposits already stored.

                Refused (exit 65, nothing stored): an unknown or inactive goal, an unknown asset, an amount that is zero, negative or not a number, an unknown frequency or method, a malformed date, automatic on a wallet, a name already used.

                Examples:
                  walletwatch saving-plan add Rent --goal House --asset Cash --amount 250 \\
                    --method automatic --start 2026-12-01
                  walletwatch saving-plan add Stack --goal House --asset "Ark wallet" \\
                    --amount 50 --currency EUR --every week
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "A unique name for the plan.") var name: String
        @Option(help: "The goal the saving is for.") var goal: String
        @Option(help: "The asset the money goes into.") var asset: String
        @Option(help: "How much on each due date, in the plan's currency.") var amount: String
        @Option(help: "The plan's currency (default: the asset's).") var currency: String?
        @Option(help: "day, week or month (default: month).") var every: String?
        @Option(help: "The first due date, yyyy-MM-dd (default: today, UTC).") var start: String?
        @Option(help: "reminder or automatic (default: reminder).") var method: String?
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let plan = try context.engine.savingPlans.add(SavingPlanRequest(
                name: name, goal: goal, asset: asset, amount: amount, currency: currency, every: every, start: start, method: method))
            let activity = try context.engine.savingPlans.catchUp()
            SavingPlanOutput.report(activity, json: output.json)
            let listing = try context.engine.savingPlans.listings().first { $0.plan.id == plan.id }!
            if output.json {
                Output.json(SavingPlanDocument.json(listing))
            } else {
                Output.line("added saving plan '\(plan.name)': \(plan.money) into '\(listing.assetName)' for '\(listing.goalName)' every \(plan.every.rawValue) from \(plan.start) (\(plan.method.rawValue)); next due \(listing.nextDue?.description ?? "-")")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the saving plans with their next due date and the latest one's status.",
            discussion: """
                The latest due date's status is recorded (an automatic plan's deposit), pending (a reminder within its 7 days), fulfilled or missed. A plan whose goal is no longer active rests: no next due date. Listing brings the plans up to date first.

                Example:
                  walletwatch saving-plan list --json
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let activity = try context.engine.savingPlans.catchUp()
            SavingPlanOutput.report(activity, json: output.json)
            let listings = try context.engine.savingPlans.listings()
            if output.json {
                Output.json(.array(listings.map(SavingPlanDocument.json)))
                return
            }
            guard !listings.isEmpty else {
                Output.line("no saving plans yet: walletwatch saving-plan add Rent --goal House --asset Cash --amount 250")
                return
            }
            var table = TextTable([.init("PLAN"), .init("GOAL"), .init("ASSET"), .init("AMOUNT", .right), .init("EVERY"), .init("METHOD"),
                                   .init("NEXT DUE"), .init("LAST")])
            for listing in listings {
                let plan = listing.plan
                table.add([plan.name, listing.goalName, listing.assetName, Display.readable(plan.amount, plan.currency), plan.every.rawValue,
                           plan.method.rawValue, listing.nextDue?.description ?? "- (goal \(listing.goalStatus.rawValue))",
                           listing.last.map { "\($0.due) \($0.status.rawValue)" } ?? "-"])
            }
            Output.lines(table.render())
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a saving plan.",
            discussion: "The deposits it recorded stay in the ledger.\n\nExample:\n  walletwatch saving-plan delete Rent")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The plan's name.") var name: String

        func run() async throws {
            let plan = try CommandContext.load(global).engine.savingPlans.delete(named: name)
            Output.line("deleted saving plan '\(plan.name)'")
        }
    }
}

/// What bringing the plans up to date did, as every command that does it tells it.
enum SavingPlanOutput {
    /// One line per due date handled or reminder decided, and the warnings (stderr). The lines
    /// go to stdout, or to stderr when stdout carries a JSON document (which they must not
    /// break, and which a script still wants to see happen).
    static func report(_ activity: SavingPlanActivity, json: Bool) {
        for warning in activity.warnings { Output.warning(warning) }
        for entry in activity.entries {
            let line: String
            switch entry.status {
            case .recorded: line = "saving plan '\(entry.plan)': recorded the deposit due \(entry.due) (\(entry.txids.joined(separator: ", ")))"
            case .pending: line = "saving plan '\(entry.plan)': due \(entry.due)\(entry.notified ? ", plan.due sent" : "")"
            case .fulfilled: line = "saving plan '\(entry.plan)': \(entry.due) fulfilled by \(entry.txids.joined(separator: ", "))"
            case .missed: line = "saving plan '\(entry.plan)': \(entry.due) missed (no deposit covered it within 7 days)"
            }
            if json { Output.standardError(line) } else { Output.line(line) }
        }
    }
}
