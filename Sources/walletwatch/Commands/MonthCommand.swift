import Foundation
import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct MonthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "month",
        abstract: "Plan the month, track what each goal receives, and close it.",
        discussion: """
            A month is planned (draft), then started: from then on every deposit, withdrawal and \
            allocation change that changes what a goal is funded with counts as a contribution, \
            at current rates. Completing the month freezes its figures and rates. Start and \
            completion can be undone for undo_grace_hours (default 24).

            A typical month:
              walletwatch month plan
              walletwatch month start
              walletwatch month status
              walletwatch month close-goal House --apply
              walletwatch month complete
            """,
        subcommands: [Plan.self, Start.self, Status.self, CloseGoal.self, Complete.self, UndoStart.self, UndoComplete.self, History.self])

    struct Plan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Show or change what each goal should receive in a month.",
            discussion: """
                required = what the goal still misses / the months left (the current month \
                through the deadline's month); goals without a deadline require nothing unless \
                you set an amount. Plans of a draft month are recomputed on every read; once the \
                month started they are frozen.
                """,
            subcommands: [Show.self, SetAmount.self, Skip.self, Reset.self],
            defaultSubcommand: Show.self)

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show the plan (the default).",
                discussion: "Examples:\n  walletwatch month plan\n  walletwatch month plan --month 2026-12 --json")
            @OptionGroup var global: GlobalOptions
            @OptionGroup var month: MonthOption
            @OptionGroup var output: JSONOption

            func run() async throws {
                let context = try CommandContext.load(global)
                let month = try month.resolve(context)
                let plan = try await context.engine.month.plan(for: month)
                for warning in plan.warnings { Output.warning(warning) }
                if output.json {
                    Output.json(MonthDocument.plan(plan.lines))
                    return
                }
                guard !plan.lines.isEmpty else {
                    Output.line("no active goals: walletwatch goal add House --currency USD --target 10000 --deadline 2027-12-31")
                    return
                }
                Output.line("plan of \(month)\(plan.frozen ? " (frozen since the month started)" : "")")
                var table = TextTable([.init("GOAL"), .init("REQUIRED", .right), .init("CUSTOM", .right), .init("PLANNED", .right), .init("")])
                for line in plan.lines {
                    let money = { (minor: Int128) in Display.readable(minor, line.goal.currency) }
                    table.add([line.goal.name, money(line.plan.required), line.plan.custom.map(money) ?? "-", money(line.planned),
                               line.plan.skipped ? "skipped" : ""])
                }
                Output.lines(table.render())
                if let budget = try context.engine.preferences.monthlyBudget() {
                    let rates = await context.engine.rates.current(for: Set(plan.lines.map { CurrencyPair(base: $0.goal.currency, quote: budget.currency) }))
                    var total: Int128 = 0
                    for line in plan.lines {
                        total += rates.table.convert(Money(minorUnits: line.planned, currency: line.goal.currency), to: budget.currency)?.minorUnits ?? 0
                    }
                    Output.line("planned \(Display.money(total, budget.currency)) of a monthly budget of \(budget)")
                    if total > budget.minorUnits { Output.warning("the plan exceeds the monthly budget by \(Display.money(total - budget.minorUnits, budget.currency))") }
                }
            }
        }

        struct SetAmount: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Plan a custom amount for a goal (in the goal's currency).",
                discussion: "Example:\n  walletwatch month plan set House 750")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The goal.") var goal: String
            @Argument(help: "The amount.") var amount: String
            @OptionGroup var month: MonthOption

            func run() async throws {
                let context = try CommandContext.load(global)
                let month = try month.resolve(context)
                let goal = try context.engine.month.setPlannedAmount(goal: goal, amount: amount, month: month)
                Output.line("planned \(amount) \(goal.currency.code) for '\(goal.name)' in \(month)")
            }
        }

        struct Skip: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "skip", abstract: "Plan nothing for a goal this month.",
                                                            discussion: "Example:\n  walletwatch month plan skip Vacation")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The goal.") var goal: String
            @OptionGroup var month: MonthOption

            func run() async throws {
                let context = try CommandContext.load(global)
                let month = try month.resolve(context)
                let goal = try context.engine.month.skipGoal(goal, month: month)
                Output.line("skipped '\(goal.name)' in \(month)")
            }
        }

        struct Reset: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "reset", abstract: "Go back to the required amount for a goal.",
                                                            discussion: "Example:\n  walletwatch month plan reset House")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The goal.") var goal: String
            @OptionGroup var month: MonthOption

            func run() async throws {
                let context = try CommandContext.load(global)
                let month = try month.resolve(context)
                let goal = try context.engine.month.resetPlan(goal: goal, month: month)
                Output.line("'\(goal.name)' is back to its required amount in \(month)")
            }
        }
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start tracking the current month.",
            discussion: """
                Runs an ingest pass first, so that what arrived before the start is counted before \
                it; without the sources it starts anyway and says so. Freezes the plans and the \
                allocation targets as the baseline. Only one month can be executing.
                """)
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try CommandContext.load(global)
            let report = try await context.engine.month.start()
            for warning in report.warnings { Output.warning(warning) }
            let zone = context.engine.preferences.displayTimeZone
            Output.line("started \(report.record.month) at \(report.record.startedAt.map { Display.time($0, zone) } ?? "?")"
                        + (report.record.canUndoUntil.map { "; `walletwatch month undo-start` is possible until \(Display.time($0, zone))" } ?? ""))
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show what each goal received this month and what is left to close it.",
            discussion: """
                planned, contributed and remaining are in each goal's currency; *_display amounts \
                in the display currency (settings display_currency, or --currency).

                Examples:
                  walletwatch month status
                  walletwatch month status --currency EUR --json
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "Show totals in this currency.") var currency: String?
        @OptionGroup var month: MonthOption
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let status = try await context.engine.month.status(month: try month.explicit(), currency: try currency.map { try context.engine.currencies.currency($0) })
            for warning in status.warnings { Output.warning(warning) }
            if output.json {
                Output.json(MonthDocument.status(status))
            } else {
                Output.lines(MonthOutput.render(status, zone: context.engine.preferences.displayTimeZone, now: context.now))
            }
        }
    }

    struct CloseGoal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "close-goal",
            abstract: "What it takes to close the month for a goal (add to close month).",
            discussion: """
                For an asset dedicated to the goal: deposit the remaining amount (converted to the \
                asset's currency). For a shared asset: raise the goal's target by it, cut to the \
                asset's unallocated balance. --apply carries it out: the allocation is written, a \
                deposit on a manual asset is recorded as a transaction.

                Examples:
                  walletwatch month close-goal House
                  walletwatch month close-goal House --asset "Ark wallet" --apply --json
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The goal.") var goal: String
        @Option(help: "The asset to use (default: the only one funding the goal).") var asset: String?
        @Flag(help: "Carry the action out.") var apply = false
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let suggestion = try await context.engine.closeGoal.suggest(goal, asset: asset, apply: apply)
            if let warning = suggestion.warning { Output.warning(warning) }
            if output.json {
                Output.json(MonthDocument.closeGoal(suggestion))
                return
            }
            Output.line(MonthOutput.render(suggestion))
        }
    }

    struct Complete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "complete",
            abstract: "Close the executing month, freezing its figures and rates.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let (record, status) = try await context.engine.month.complete()
            if output.json {
                Output.json(MonthDocument.status(status))
                return
            }
            Output.line("completed \(record.month)" + (record.canUndoUntil.map { "; `walletwatch month undo-complete` is possible until \(Display.time($0, context.engine.preferences.displayTimeZone))" } ?? ""))
            Output.lines(MonthOutput.render(status, zone: context.engine.preferences.displayTimeZone, now: context.now))
        }
    }

    struct UndoStart: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo-start", abstract: "Return the executing month to planning (within the grace period).")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let record = try CommandContext.load(global).engine.month.undoStart()
            Output.line("\(record.month) is back to draft; its plan can change again")
        }
    }

    struct UndoComplete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo-complete", abstract: "Reopen the last closed month (within the grace period).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var month: MonthOption

        func run() async throws {
            let record = try CommandContext.load(global).engine.month.undoComplete(try month.explicit())
            Output.line("\(record.month) is executing again")
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "Closed months with their frozen figures.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let months = try CommandContext.load(global).engine.month.history()
            if output.json {
                Output.json(MonthDocument.history(months))
                return
            }
            guard !months.isEmpty else {
                Output.line("no closed months yet")
                return
            }
            var table = TextTable([.init("MONTH"), .init("GOAL"), .init("PLANNED", .right), .init("CONTRIBUTED", .right), .init("REMAINING", .right)])
            for (record, data) in months {
                for goal in data.goals {
                    table.add([record.month.description, goal.name, Display.readable(goal.planned, goal.currency),
                               Display.readable(goal.contributed, goal.currency), Display.readable(goal.remaining, goal.currency)])
                }
            }
            Output.lines(table.render())
        }
    }
}

/// `--month yyyy-MM`.
struct MonthOption: ParsableArguments {
    @Option(name: .customLong("month"), help: ArgumentHelp("The month (default: the current one).", valueName: "yyyy-MM"))
    var value: String?

    func explicit() throws -> MonthLabel? {
        try value.map { text in
            guard let month = MonthLabel(text) else { throw UsageError("--month '\(text)' is not a month; write it like 2026-11") }
            return month
        }
    }

    func resolve(_ context: CommandContext) throws -> MonthLabel {
        try explicit() ?? context.now.monthLabel
    }
}

/// The month views as text.
enum MonthOutput {
    static func render(_ status: MonthStatus, zone: TimeZone, now: Instant) -> [String] {
        var lines: [String] = []
        var header = "\(status.month) \(status.state.rawValue)"
        if let started = status.startedAt { header += " since \(Display.time(started, zone))" }
        if let completed = status.completedAt { header += ", completed \(Display.time(completed, zone))" }
        if let asOf = status.ratesAsOf { header += "; rates of \(Display.age(seconds: now.seconds(since: asOf))) ago\(status.ratesStale ? " (stale)" : "")" }
        if !status.missingRates.isEmpty { header += "; \(Display.noRate(for: status.missingRates))" }
        lines.append(header)
        if status.goals.isEmpty {
            lines.append("no goals in this month's plan")
            return lines
        }
        var table = TextTable([.init("GOAL"), .init("PLANNED", .right), .init("CONTRIBUTED", .right), .init("REMAINING", .right),
                               .init("IN \(status.displayCurrency.code)", .right), .init("")])
        for goal in status.goals {
            let money = { (minor: Int128) in Display.readable(minor, goal.currency) }
            table.add([goal.name, money(goal.figures.planned), money(goal.figures.contributed), money(goal.figures.remaining),
                       goal.remainingDisplay.map { Display.readable($0, status.displayCurrency) }
                           ?? Display.noRate(for: [CurrencyPair(base: goal.currency, quote: status.displayCurrency)]),
                       ProgressBar.render(goal.figures.contributed, of: goal.figures.planned, width: 20)])
        }
        let total = { (minor: Int128?) in minor.map { Display.readable($0, status.displayCurrency) } ?? Display.noRate(for: status.missingRates) }
        table.add(["TOTAL", total(status.plannedDisplay), total(status.contributedDisplay), total(status.remainingDisplay), "",
                   ProgressBar.render(status.contributedDisplay ?? 0, of: status.plannedDisplay ?? 0, width: 20)])
        lines.append(contentsOf: table.render())
        return lines
    }

    static func render(_ suggestion: CloseGoalSuggestion) -> String {
        let remaining = Display.money(suggestion.remaining, suggestion.currency)
            + (suggestion.remainingDisplay.map { " (\(Display.money($0, suggestion.displayCurrency)))" } ?? "")
        switch suggestion.action {
        case .none:
            return "month closed for '\(suggestion.goal)': nothing remains"
        case .deposit:
            let amount = Display.money(suggestion.amount ?? 0, suggestion.amountCurrency ?? suggestion.currency)
            return suggestion.applied
                ? "recorded a deposit of \(amount) on '\(suggestion.asset ?? "?")' for '\(suggestion.goal)' (remaining was \(remaining))"
                : "deposit \(amount) into '\(suggestion.asset ?? "?")' to close the month for '\(suggestion.goal)' (remaining \(remaining))"
        case .allocate:
            let targets = (suggestion.allocations ?? []).map { "\($0.goal)=\(Money(minorUnits: $0.amount, currency: suggestion.amountCurrency ?? suggestion.currency).majorString)" }
            return (suggestion.applied ? "raised the target: " : "allocate ") + "\"\(suggestion.asset ?? "?")\" " + targets.joined(separator: " ")
                + " (remaining \(remaining)\(suggestion.clamped ? ", cut to the unallocated balance" : ""))"
        }
    }
}

/// A text progress bar: `[#######·······]  45%`.
enum ProgressBar {
    static func render(_ value: Int128, of total: Int128, width: Int) -> String {
        // Whole percent, rounded down, from the exact amounts (18-decimal ones exceed a Double's 53 bits).
        let percent = total <= 0 ? 100 : Int(clamping: Rounding.truncatingDivision(max(0, value), times: 100, over: total)?.quotient ?? 100)
        let filled = min(width, percent * width / 100)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled) + "] "
            + String(repeating: " ", count: max(0, 3 - String(percent).count)) + "\(percent)%"
    }
}
