import Foundation
import WalletWatchCore
import WalletWatchEngine

/// The pictures of a portfolio report: the portfolio's value over time and each goal's funded
/// value over time against its target, on a daily grid. The web page and `report --svg` draw
/// the same charts.
public struct PortfolioCharts: Sendable {
    /// The portfolio's value (and each asset's) in the report's currency, day by day.
    public let portfolio: LineChart
    /// One chart per goal: its funded value in its own currency, and its target.
    public let goals: [LineChart]

    /// The portfolio first, then the goals.
    public var all: [LineChart] { [portfolio] + goals }

    /// The charts of `report` (goals over the daily grid of every asset, whatever `--asset` chose).
    public init(_ report: PortfolioReport) {
        portfolio = Self.portfolioChart(report)
        goals = Self.goalCharts(report)
    }

    /// Every chart stacked in one standalone SVG file, on a white background.
    public var document: String {
        let charts = all
        let height = LineChart.height * charts.count
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(LineChart.width)\" height=\"\(height)\" viewBox=\"0 0 \(LineChart.width) \(height)\" "
        svg += "color=\"#1d2430\" font-family=\"system-ui, -apple-system, Segoe UI, Roboto, sans-serif\" font-size=\"13\">\n"
        svg += "<title>\(XMLText.escape(portfolio.title))</title>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        for (index, chart) in charts.enumerated() {
            svg += "<g transform=\"translate(0 \(index * LineChart.height))\">\(chart.body)</g>\n"
        }
        return svg + "</svg>\n"
    }

    static func portfolioChart(_ report: PortfolioReport) -> LineChart {
        let points = report.dailyTimeline()
        let currency = report.currency
        var series = [LineChart.Series(label: report.assets.count == 1 ? report.assets[0].asset.name : "Portfolio",
                                       color: LineChart.palette[0], values: points.map(\.total), filled: true)]
        if report.assets.count > 1 {
            for (index, line) in report.assets.prefix(LineChart.palette.count - 1).enumerated() {
                series.append(LineChart.Series(label: line.asset.name, color: LineChart.palette[index + 1], values: points.map { $0.values[index] }))
            }
        }
        let missing = report.assets.compactMap { $0.figures.missingPrice?.pair }
        var subtitle = "value " + (report.total.value.map { DisplayFormat.money($0, currency) } ?? "unknown (\(DisplayFormat.noRate(for: missing)))")
        if let cost = report.total.costBasis { subtitle += " · cost basis \(Money(minorUnits: cost, currency: currency).majorString)" }
        if let twr = report.total.timeWeightedReturn { subtitle += " · TWR \(DisplayFormat.percent(twr))" }
        let unknown = points.filter { $0.total == nil }
        let pairs = unknown.isEmpty ? "" : Set(report.assets.enumerated().flatMap { index, line in
            unknown.contains { $0.values[index] == nil } ? [CurrencyPair(base: line.asset.currency, quote: currency).description] : []
        }).sorted().joined(separator: ", ")
        let note = unknown.isEmpty ? nil : "no rate known on \(unknown.count) day(s) up to \(unknown.last!.instant.day)\(pairs.isEmpty ? "" : " (\(pairs))"): the line breaks there"
        return LineChart(title: "Portfolio value (\(currency.code))", subtitle: subtitle, instants: points.map(\.instant), series: series,
                         currency: currency, note: note)
    }

    static func goalCharts(_ report: PortfolioReport) -> [LineChart] {
        let goals = report.goals.map(\.goal)
        guard !goals.isEmpty else { return [] }
        let instants = ValueTimeline.dailyInstants(
            from: (report.data.assets.compactMap { $0.movements.first?.date } + report.data.targetChanges.map(\.timestamp)).min(), now: report.now)
        let funded = GoalTimeline.funded(goals: goals.map { (id: $0.id!, currency: $0.currency) }, assets: report.data.assets,
                                         history: report.data.targetChanges, rates: report.pricer.history, at: instants)
        return report.goals.map { line in
            let goal = line.goal
            let values = funded[goal.id!] ?? []
            let funded = line.progress.funded.map { DisplayFormat.money($0, goal.currency) } ?? DisplayFormat.noRate(for: line.progress.missingRates)
            let percent = line.progress.achievementRate.map { " (\(DisplayFormat.percent($0.numerator, $0.denominator)))" } ?? ""
            let subtitle = "funded \(funded) of \(DisplayFormat.money(goal.target, goal.currency))\(percent)"
                + (line.progress.reached == true ? " · reached" : "")
                + (goal.status == .finished ? " · finished" : "")
            let unknown = values.filter { $0 == nil }.count
            return LineChart(
                title: "\(goal.name) (\(goal.currency.code))", subtitle: subtitle, instants: instants,
                series: [LineChart.Series(label: "funded", color: LineChart.palette[2], values: values, filled: true),
                         LineChart.Series(label: "target", color: "#7f8c8d", values: instants.map { _ in goal.target }, dashed: true)],
                currency: goal.currency,
                note: unknown > 0 ? "no rate known on \(unknown) day(s): the line breaks there" : nil)
        }
    }
}
