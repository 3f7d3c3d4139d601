import Foundation
import WalletWatchCore
import WalletWatchEngine

/// The web page's figures as text, ready for its templates: every value here is plain text that
/// the template library escapes, except the charts' SVG, which walletwatch draws itself (its own
/// text escaped as XML when drawn) and inserts as markup on purpose.
struct DashboardView {
    /// One goal's line of the month.
    struct GoalRow {
        let name: String
        let closed: Bool
        let percent: String
        let bar: Bar
        let planned: String
        let contributed: String
        let remaining: String
        /// `remaining` in the display currency; nil without a rate.
        let remainingDisplay: String?
        /// What stands where `remainingDisplay` is missing: `no rate for ETH/USD`.
        let noRate: String
    }

    /// A progress bar filled to a whole percentage.
    struct Bar {
        let percent: Int
    }

    /// The month's total in the display currency ("no rate" where one is missing).
    struct Total {
        let currency: String
        let contributed: String
        let planned: String
        let remaining: String
        let bar: Bar
    }

    /// A money figure of the portfolio, or nil without a rate.
    struct Figure {
        let label: String
        let value: String?
        let strong: Bool
        /// What stands where `value` is missing: `no rate for ETH/USD`.
        let noRate: String
    }

    /// The portfolio's figures and its charts.
    struct Portfolio {
        let figures: [Figure]
        let timeWeightedReturn: String
        /// Trusted markup: SVG drawn by ``LineChart``, which escapes every text it draws.
        let chartsSVG: String
    }

    struct AssetRow {
        let name: String
        let balance: String
        let pending: String
        let age: String
    }

    struct SourceRow {
        let name: String
        /// nil: not ingested yet.
        let run: Run?

        struct Run {
            let ok: Bool
            let new: Int
            let updated: Int
            let error: String
            let age: String
        }
    }

    struct TransactionRow {
        let date: String
        let asset: String
        let amount: String
        /// The value in the display currency at its date ("no rate for ETH/USD" without one).
        let value: String
        let outgoing: Bool
        let status: String
        let tags: [String]
    }

    let month: String
    let stateLine: String
    let goals: [GoalRow]
    let hasGoals: Bool
    let total: Total
    let portfolio: Portfolio?
    let assets: [AssetRow]
    let sources: [SourceRow]
    let hasSources: Bool
    let transactions: [TransactionRow]
    /// The next saving plan due (``NextSavingPlan``), nil without one.
    let nextPlan: String?

    /// The view of `dashboard`, with `charts` drawn from its portfolio report (nil: none).
    init(_ dashboard: Dashboard, charts: PortfolioCharts?) {
        let zone = TimeZone(identifier: dashboard.timeZone) ?? TimeZone(identifier: "UTC")!
        let status = dashboard.status
        month = status.month.description
        var line = "\(status.state.rawValue)"
        if let started = status.startedAt { line += " since \(DisplayFormat.time(started, zone))" }
        if let asOf = status.ratesAsOf {
            line += " · rates of \(DisplayFormat.age(seconds: dashboard.now.seconds(since: asOf))) ago"
            if status.ratesStale { line += " (stale)" }
        }
        if !status.missingRates.isEmpty { line += " · \(DisplayFormat.noRate(for: status.missingRates))" }
        stateLine = line

        goals = status.goals.map { goal in
            let figures = goal.figures
            let money = { (minor: Int128) in DisplayFormat.money(minor, goal.currency) }
            return GoalRow(
                name: goal.name, closed: figures.closed,
                percent: DisplayFormat.percent(figures.contributed, figures.planned == 0 ? 1 : figures.planned),
                bar: Bar(value: figures.contributed, of: figures.planned), planned: money(figures.planned),
                contributed: money(figures.contributed), remaining: money(figures.remaining),
                remainingDisplay: goal.remainingDisplay.map { DisplayFormat.money($0, status.displayCurrency) },
                noRate: DisplayFormat.noRate(for: [CurrencyPair(base: goal.currency, quote: status.displayCurrency)]))
        }
        hasGoals = !goals.isEmpty
        let display = status.displayCurrency
        let orNoRate = { (minor: Int128?) in minor.map { DisplayFormat.money($0, display) } ?? DisplayFormat.noRate(for: status.missingRates) }
        total = Total(currency: display.code, contributed: orNoRate(status.contributedDisplay), planned: orNoRate(status.plannedDisplay),
                      remaining: orNoRate(status.remainingDisplay),
                      bar: Bar(value: status.contributedDisplay ?? 0, of: status.plannedDisplay ?? 0))

        if let report = dashboard.portfolio, !report.assets.isEmpty, let charts {
            let money = { (minor: Int128?) in minor.map { DisplayFormat.money($0, report.currency) } }
            let noRate = DisplayFormat.noRate(for: report.assets.compactMap { $0.figures.missingPrice?.pair })
            portfolio = Portfolio(
                figures: [
                    Figure(label: "value", value: money(report.total.value), strong: true, noRate: noRate),
                    Figure(label: "cost basis", value: money(report.total.costBasis), strong: false, noRate: noRate),
                    Figure(label: "unrealized", value: money(report.total.unrealizedGain), strong: false, noRate: noRate),
                    Figure(label: "realized", value: money(report.total.realizedGain), strong: false, noRate: noRate),
                ],
                timeWeightedReturn: report.total.timeWeightedReturn.map { DisplayFormat.percent($0) } ?? "–",
                chartsSVG: charts.all.map(\.inlineSVG).joined())
        } else {
            portfolio = nil
        }

        assets = dashboard.assets.map { overview in
            let asset = overview.asset
            return AssetRow(
                name: asset.name, balance: DisplayFormat.money(overview.balance.counted, asset.currency),
                pending: overview.balance.pending == 0 ? "–" : DisplayFormat.money(overview.balance.pending, asset.currency),
                age: overview.balance.lastUpdated.map { DisplayFormat.age(seconds: dashboard.now.seconds(since: $0)) } ?? "–")
        }
        sources = dashboard.sources.map { source in
            SourceRow(name: source.name, run: source.lastRun.map { run in
                SourceRow.Run(ok: run.ok, new: run.counts.new, updated: run.counts.updated, error: run.error ?? "",
                              age: DisplayFormat.age(seconds: dashboard.now.seconds(since: run.finishedAt)))
            })
        }
        hasSources = !sources.isEmpty
        nextPlan = NextSavingPlan.line(dashboard.savingPlans, today: dashboard.now.day)
        transactions = dashboard.latest.map { listing in
            let tx = listing.transaction
            return TransactionRow(date: DisplayFormat.time(tx.date, zone), asset: listing.assetName, amount: listing.money.description,
                                  value: listing.value.map { value in
                                      value.money.map { DisplayFormat.money($0.minorUnits, $0.currency) }
                                          ?? DisplayFormat.noRate(for: [CurrencyPair(base: listing.currency, quote: value.currency)])
                                  } ?? "",
                                  outgoing: tx.amount < 0, status: tx.status.rawValue, tags: listing.tags)
        }
    }
}

extension DashboardView.Bar {
    /// A bar filled to value/total, in whole percent.
    init(value: Int128, of total: Int128) {
        percent = Int((DisplayFormat.fill(value, of: total) * 100).rounded())
    }
}
