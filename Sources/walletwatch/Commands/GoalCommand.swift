import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct GoalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal",
        abstract: "Savings goals: add, list, show, and end them.",
        discussion: """
            A goal is funded by the assets allocated to it (`walletwatch allocate`). A goal \
            ends in one of three ways: `cancel` frees its allocations (targets set to 0) for \
            other goals; `finish` keeps its allocations and counts them as spent; `delete` \
            removes the goal and its allocations (closed months keep their figures).
            """,
        subcommands: [Add.self, List.self, Show.self, Address.self, Cancel.self, Finish.self, Delete.self])

    struct Address: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "address",
            abstract: "Give a goal its own deposit address in an HD wallet.",
            discussion: """
                Reserves the next unused receive address of the HD wallet ASSET (an esplora source with `descriptors` or `xpub`) for the goal, or shows the one already reserved while it is still unused, with a BIP21 URI to hand to a payer or a wallet app. A confirmed deposit to that address is allocated to the goal (Rule 1b), even when the wallet is shared between goals: the address says where the money belongs. Once it is used, the next call reserves a fresh one. A cancelled or finished goal's reservation no longer applies.

                Examples:
                  walletwatch goal address House --asset "Cold wallet"
                  walletwatch goal address "Emergency fund" --asset "Cold wallet" --json
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The goal's name (an active goal).") var name: String
        @Option(help: "The HD wallet's asset name.") var asset: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let deposit = try await context.engine.walletAddresses.reserve(goal: name, asset: asset)
            if output.json {
                Output.json(WalletAddressDocument.deposit(deposit))
            } else {
                Output.line("\(deposit.address)  (receive index \(deposit.index) of '\(deposit.asset)', reserved for '\(deposit.goal)')")
                Output.line(deposit.uri)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a goal.",
            discussion: """
                TARGET is in the goal's currency, in major units (10000, 0.5 for BTC).

                Examples:
                  walletwatch goal add House --currency USD --target 10000
                  walletwatch goal add Trip --currency EUR --target 5000 --deadline 2027-06-30
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "A unique name.") var name: String
        @Option(help: "ISO 4217 code or BTC.") var currency: String
        @Option(help: "The amount to reach.") var target: String
        @Option(help: "yyyy-MM-dd (optional).") var deadline: String?
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let currency = try context.engine.currencies.currency(currency)
            let target = try AmountInput.parseMoney(target, currency: currency)
            let deadline = try deadline.map { text -> Day in
                guard let day = Day(text) else { throw UsageError("--deadline '\(text)' is not a date; write it like 2027-06-30") }
                return day
            }
            let goal = try context.engine.goals.add(name: name, currency: currency, target: target, deadline: deadline)
            if let deadline, deadline < context.now.day {
                Output.warning("the deadline \(deadline) has passed; planning counts the current month as the last one")
            }
            if output.json {
                try await GoalOutput.show(goal.name, context: context, json: true)
            } else {
                Output.line("added goal '\(goal.name)': \(Display.money(goal.target, goal.currency))\(goal.deadline.map { " by \($0)" } ?? "")")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List goals with their progress.",
            discussion: "Example:\n  walletwatch goal list --json")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let overviews = try context.engine.goals.overviews()
            let (progress, warnings) = await context.engine.goals.progress(overviews)
            for warning in warnings { Output.warning(warning) }
            if output.json {
                Output.json(.array(overviews.map { GoalDocument.json($0, progress: progress[$0.goal.id!]!) }))
                GoalOutput.warnAboutMissingRates(Array(progress.values))
                return
            }
            guard !overviews.isEmpty else {
                Output.line("no goals yet: walletwatch goal add House --currency USD --target 10000")
                return
            }
            var table = TextTable([.init("GOAL"), .init("TARGET", .right), .init("FUNDED", .right), .init("PROGRESS", .right),
                                   .init("REMAINING", .right), .init("DEADLINE"), .init("STATUS")])
            for overview in overviews {
                let goal = overview.goal
                let progress = progress[goal.id!]!
                table.add([goal.name, Display.readable(goal.target, goal.currency),
                           progress.funded.map { Display.readable($0, goal.currency) } ?? Display.noRate(for: progress.missingRates),
                           progress.achievementRate.map { Display.percent($0.numerator, $0.denominator) } ?? Display.noRate,
                           progress.distance.map { Display.readable(max(0, $0), goal.currency) } ?? Display.noRate,
                           goal.deadline?.description ?? "-", goal.status.rawValue])
            }
            Output.lines(table.render())
            GoalOutput.warnAboutMissingRates(Array(progress.values))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a goal with each asset's allocation and funded amount.",
            discussion: """
                An asset funds its whole target while its balance covers all of its targets, and a \
                proportional share of its balance when it does not.

                Example:
                  walletwatch goal show House --json
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The goal's name.") var name: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            try await GoalOutput.show(name, context: context, json: output.json)
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Cancel a goal and free its allocations.",
            discussion: "Example:\n  walletwatch goal cancel Vacation")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The goal's name.") var name: String

        func run() async throws {
            let goal = try CommandContext.load(global).engine.goals.cancel(named: name)
            Output.line("cancelled goal '\(goal.name)'; its allocations are free again")
        }
    }

    struct Finish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "finish",
            abstract: "Mark a goal as finished; its allocations count as spent.",
            discussion: "Example:\n  walletwatch goal finish House")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The goal's name.") var name: String

        func run() async throws {
            let goal = try CommandContext.load(global).engine.goals.finish(named: name)
            Output.line("finished goal '\(goal.name)'; its allocations are kept as spent")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a goal with its allocations and plans.",
            discussion: "Closed months keep their frozen figures.\n\nExample:\n  walletwatch goal delete Vacation")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The goal's name.") var name: String

        func run() async throws {
            let goal = try CommandContext.load(global).engine.goals.delete(named: name)
            Output.line("deleted goal '\(goal.name)'")
        }
    }
}

/// Shared output of `goal show` (also printed by `goal add --json`).
enum GoalOutput {
    static func show(_ name: String, context: CommandContext, json: Bool) async throws {
        let overview = try context.engine.goals.overview(named: name)
        let (all, warnings) = await context.engine.goals.progress([overview])
        for warning in warnings { Output.warning(warning) }
        let progress = all[overview.goal.id!]!
        if json {
            Output.json(GoalDocument.json(overview, progress: progress))
            return
        }
        let goal = overview.goal
        Output.line("\(goal.name) (\(goal.status.rawValue))")
        Output.line("  target    \(Display.money(goal.target, goal.currency))\(goal.deadline.map { " by \($0)" } ?? "")")
        if let funded = progress.funded, let rate = progress.achievementRate, let distance = progress.distance {
            Output.line("  funded    \(Display.money(funded, goal.currency)) (\(Display.percent(rate.numerator, rate.denominator)))")
            Output.line(distance <= 0 ? "  reached" : "  remaining \(Display.money(distance, goal.currency))")
        } else {
            Output.line("  funded    \(Display.noRate(for: progress.missingRates))")
        }
        if !overview.shares.isEmpty {
            var table = TextTable([.init("ASSET"), .init("ALLOCATED", .right), .init("FUNDED", .right)])
            for share in overview.shares {
                table.add([share.asset.name, Display.readable(share.allocated, share.asset.currency),
                           Display.readable(share.funded, share.asset.currency)])
            }
            Output.line()
            Output.lines(table.render())
        }
        warnAboutMissingRates([progress])
    }

    static func warnAboutMissingRates(_ progresses: [GoalProgress]) {
        let missing = Set(progresses.flatMap(\.missingRates)).sorted()
        guard !missing.isEmpty else { return }
        Output.warning("no exchange rate for \(missing.map(\.description).joined(separator: ", ")): the goals those assets fund show no funded amount; run `walletwatch rates --refresh`, or for a unit without a CoinGecko id `walletwatch rates set`")
    }
}
