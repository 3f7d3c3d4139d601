import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

/// The dashboard as text lines fitted to a width (the same figures as the web page).
enum TerminalDashboard {
    static func render(_ dashboard: Dashboard, width: Int) -> [String] {
        let zone = TimeZone(identifier: dashboard.timeZone) ?? TimeZone(identifier: "UTC")!
        let status = dashboard.status
        var lines: [String] = []
        var header = "walletwatch · \(status.month) \(status.state.rawValue)"
        if let started = status.startedAt { header += " since \(Display.time(started, zone))" }
        if let asOf = status.ratesAsOf {
            header += " · rates of \(Display.age(seconds: dashboard.now.seconds(since: asOf))) ago\(status.ratesStale ? " (stale)" : "")"
        }
        if !status.missingRates.isEmpty { header += " · \(Display.noRate(for: status.missingRates))" }
        lines.append(header)
        lines.append("")

        let barWidth = max(10, min(30, width - 70))
        var goals = TextTable([.init("GOAL"), .init("PROGRESS"), .init("PLANNED", .right), .init("CONTRIBUTED", .right), .init("REMAINING", .right)])
        for goal in status.goals {
            let money = { (minor: Int128) in Display.readable(minor, goal.currency) }
            goals.add([goal.name, ProgressBar.render(goal.figures.contributed, of: goal.figures.planned, width: barWidth),
                       money(goal.figures.planned), money(goal.figures.contributed), money(goal.figures.remaining)])
        }
        let display = status.displayCurrency
        let total = { (minor: Int128?) in minor.map { Display.readable($0, display) } ?? Display.noRate(for: status.missingRates) }
        goals.add(["TOTAL (\(display.code))", ProgressBar.render(status.contributedDisplay ?? 0, of: status.plannedDisplay ?? 0, width: barWidth),
                   total(status.plannedDisplay), total(status.contributedDisplay), total(status.remainingDisplay)])
        lines.append(contentsOf: status.goals.isEmpty ? ["no goals in this month's plan"] : goals.render())
        lines.append("")

        if let next = NextSavingPlan.line(dashboard.savingPlans, today: dashboard.now.day) {
            lines.append("NEXT SAVING PLAN")
            lines.append(next)
            lines.append("")
        }

        var assets = TextTable([.init("ASSET"), .init("BALANCE", .right), .init("PENDING", .right), .init("AGE", .right)])
        for overview in dashboard.assets {
            let asset = overview.asset
            assets.add([asset.name, Display.readable(overview.balance.counted, asset.currency),
                        overview.balance.pending == 0 ? "-" : Display.readable(overview.balance.pending, asset.currency),
                        overview.balance.lastUpdated.map { Display.age(seconds: dashboard.now.seconds(since: $0)) } ?? "-"])
        }
        lines.append(contentsOf: assets.render())
        lines.append("")

        for source in dashboard.sources {
            guard let run = source.lastRun else {
                lines.append("source \(source.name): not ingested yet")
                continue
            }
            let ago = Display.age(seconds: dashboard.now.seconds(since: run.finishedAt))
            lines.append(run.ok
                ? "source \(source.name): ok \(ago) ago (+\(run.counts.new) new, \(run.counts.updated) updated)"
                : "source \(source.name): FAILED \(ago) ago: \(run.error ?? "")")
        }
        if !dashboard.sources.isEmpty { lines.append("") }

        var latest = TextTable([.init("DATE"), .init("ASSET"), .init("AMOUNT", .right), .init("STATUS"), .init("TAGS")])
        for listing in dashboard.latest {
            latest.add([Display.time(listing.transaction.date, zone), listing.assetName, Display.readable(listing.money.minorUnits, listing.money.currency),
                        listing.transaction.status.rawValue, listing.tags.joined(separator: ", ")])
        }
        lines.append(contentsOf: dashboard.latest.isEmpty ? ["no transactions yet"] : latest.render())
        return lines.map { fit($0, width) }
    }

    /// A line cut to the terminal's width, as ``Output`` will print it (a control character
    /// takes the width of its escape).
    static func fit(_ line: String, _ width: Int) -> String {
        guard DisplayWidth.of(line) > width else { return line }
        var result = ""
        var used = 0
        for character in line {
            let next = DisplayWidth.of(String(character))
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }
}
