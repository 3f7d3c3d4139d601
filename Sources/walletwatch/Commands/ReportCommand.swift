import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Portfolio figures: value, average cost, cost basis, gains, time-weighted return, goals.",
        discussion: """
            Per asset and overall, in the display currency (or --currency): quantity (the sum of \
            confirmed transactions), value (quantity x price now), average cost (a moving \
            average in date order: a deposit adds its value at its date to the cost basis, a \
            withdrawal takes out its amount at the average of that moment), cost basis (what \
            the quantity held cost), unrealized gain (value - cost basis), realized gain (each \
            withdrawal's amount x its price minus the average cost at that moment: fixed once \
            realized, whatever comes later) and the time-weighted return (sub-period returns \
            between cash flows, chained). Then each goal's achievement rate (funded / \
            target), distance (target - funded, in the goal's currency) and whether it is reached.

            The price at a date is the latest rate at or before it. A figure that needs a price \
            at a date for which no rate is known is shown as "no rate" (null in JSON) with a \
            warning naming the pair and the date, never as 0: `walletwatch rates import FILE` \
            adds older daily prices.

            --timeline adds the value timeline to the JSON: `events` has a point at every \
            transaction or rate date, `daily` one at the end of every UTC day. --svg writes the \
            portfolio and goal charts the web page shows to a file (mode 0600).

            Examples:
              walletwatch report
              walletwatch report --asset "Cold storage" --currency EUR
              walletwatch report --json --timeline daily
              walletwatch report --svg portfolio.svg
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this asset (the total is then that asset's).") var asset: String?
    @Option(help: "The currency of the figures (default: the display_currency setting).") var currency: String?
    @Option(help: "Add a value timeline to the JSON: events or daily.") var timeline: String?
    @Option(help: ArgumentHelp("Write the charts as an SVG file.", valueName: "file")) var svg: String?
    @OptionGroup var output: JSONOption

    func run() async throws {
        let timelineKind = try timeline.map { text in
            guard let kind = ReportDocument.Timeline(rawValue: text) else {
                throw UsageError("--timeline '\(text)' is not accepted; use events or daily")
            }
            return kind
        }
        if timelineKind != nil && !output.json { throw UsageError("--timeline adds to the JSON document; pass --json too") }
        let context = try CommandContext.load(global)
        let report = try await context.engine.reports.portfolio(assetName: asset, currency: currency.map { try context.engine.currencies.currency($0) })
        for warning in report.warnings { Output.warning(warning) }
        if let svg {
            try PrivateFile.write(PortfolioCharts(report).document, to: svg)
            Output.standardError("wrote the charts to \(svg)")
        }
        if output.json {
            Output.json(ReportDocument.json(report, timeline: timelineKind))
            return
        }
        ReportOutput.print(report, zone: context.engine.preferences.displayTimeZone)
    }
}

/// The tables of `walletwatch report`.
enum ReportOutput {
    static func print(_ report: PortfolioReport, zone: TimeZone) {
        let currency = report.currency
        let money = { (minor: Int128?) in minor.map { Money.readableString($0, exponent: currency.exponent) } ?? "no rate" }
        let percent = { (fraction: Decimal?) in fraction.map(Display.percent) ?? "-" }
        Output.line("Portfolio in \(currency.code) as of \(Display.time(report.now, zone))")
        var table = TextTable([.init("ASSET"), .init("QUANTITY", .right), .init("VALUE", .right), .init("AVG COST", .right),
                               .init("COST BASIS", .right), .init("UNREALIZED", .right), .init("REALIZED", .right), .init("TWR", .right)])
        for line in report.assets {
            let figures = line.figures
            let noRate = figures.missingPrice.map { Display.noRate(for: [$0.pair]) } ?? Display.noRate
            let money = { (minor: Int128?) in minor.map { Money.readableString($0, exponent: currency.exponent) } ?? noRate }
            table.add([line.asset.name, Display.readable(figures.quantity, line.asset.currency), money(figures.value),
                       figures.averageCost.map { money($0) } ?? (figures.missingPrice == nil ? "-" : "no rate"),
                       money(figures.costBasis), money(figures.unrealizedGain), money(figures.realizedGain),
                       figures.timeWeightedReturn == nil && figures.missingPrice != nil ? "no rate" : percent(figures.timeWeightedReturn)])
        }
        let total = report.total
        let anyMissing = report.assets.contains { $0.figures.missingPrice != nil }
        table.add(["Total", "", money(total.value), "", money(total.costBasis), money(total.unrealizedGain), money(total.realizedGain),
                   total.timeWeightedReturn == nil && anyMissing ? "no rate" : percent(total.timeWeightedReturn)])
        Output.lines(table.render())
        guard !report.goals.isEmpty else { return }
        var goals = TextTable([.init("GOAL"), .init("FUNDED", .right), .init("TARGET", .right), .init("ACHIEVED", .right),
                               .init("DISTANCE", .right), .init("REACHED")])
        for line in report.goals {
            let goal = line.goal
            let progress = line.progress
            goals.add([goal.name, progress.funded.map { Display.readable($0, goal.currency) } ?? Display.noRate(for: progress.missingRates),
                       Display.readable(goal.target, goal.currency),
                       progress.achievementRate.map { Display.percent($0.numerator, $0.denominator) } ?? Display.noRate,
                       progress.distance.map { Display.readable($0, goal.currency) } ?? Display.noRate,
                       progress.reached.map { $0 ? "yes" : "no" } ?? Display.noRate])
        }
        Output.line()
        Output.lines(goals.render())
    }
}
