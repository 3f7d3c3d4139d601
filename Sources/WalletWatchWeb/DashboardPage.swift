import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchStore

/// The web page: the dashboard rendered by the server, with its style and a few lines of
/// script inline (no external assets), readable on a phone. The script listens to `/events`
/// and swaps in a fresh `/fragment` on every change, so the page updates without a reload.
enum DashboardPage {
    static func document(_ dashboard: Dashboard) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>walletwatch · \(escape(dashboard.status.month.description))</title>
        <style>\(style)</style>
        </head>
        <body>
        <main id="dashboard">\(fragment(dashboard))</main>
        <footer><span id="live" class="muted">connecting…</span> · walletwatch</footer>
        <script>\(script)</script>
        </body>
        </html>
        """
    }

    /// The part of the page that changes: swapped in by the script on every event.
    static func fragment(_ dashboard: Dashboard) -> String {
        let zone = TimeZone(identifier: dashboard.timeZone) ?? TimeZone(identifier: "UTC")!
        return [header(dashboard, zone), goals(dashboard.status), portfolio(dashboard), assets(dashboard, zone), sources(dashboard, zone),
                transactions(dashboard, zone)].joined(separator: "\n")
    }

    private static func header(_ dashboard: Dashboard, _ zone: TimeZone) -> String {
        let status = dashboard.status
        var line = "\(status.state.rawValue)"
        if let started = status.startedAt { line += " since \(DisplayFormat.time(started, zone))" }
        if let asOf = status.ratesAsOf {
            line += " · rates of \(DisplayFormat.age(seconds: dashboard.now.seconds(since: asOf))) ago"
            if status.ratesStale { line += " (stale)" }
        }
        if !status.missingRates.isEmpty { line += " · no rate for \(status.missingRates.map(\.description).joined(separator: ", "))" }
        return "<header><h1>\(escape(status.month.description))</h1><p class=\"muted\">\(escape(line))</p></header>"
    }

    private static func goals(_ status: MonthStatus) -> String {
        var rows = ""
        for goal in status.goals {
            let figures = goal.figures
            let money = { (minor: Int64) in escape(DisplayFormat.money(minor, goal.currency)) }
            rows += """
                <li class="goal\(figures.closed ? " closed" : "")">
                <div class="row"><strong>\(escape(goal.name))</strong><span>\(escape(DisplayFormat.percent(figures.contributed, figures.planned == 0 ? 1 : figures.planned)))</span></div>
                \(bar(figures.contributed, of: figures.planned))
                <div class="row small"><span>planned \(money(figures.planned))</span><span>contributed \(money(figures.contributed))</span></div>
                <div class="row small"><span>remaining \(money(figures.remaining))</span>\(goal.remainingDisplay.map { "<span>\(escape(DisplayFormat.money($0, status.displayCurrency)))</span>" } ?? "<span class=\"warn\">no rate</span>")</div>
                </li>
                """
        }
        let display = status.displayCurrency
        let total = { (minor: Int64?) in minor.map { escape(DisplayFormat.money($0, display)) } ?? "no rate" }
        return """
            <section><h2>Goals this month</h2>
            \(status.goals.isEmpty ? "<p class=\"muted\">No goals in this month's plan.</p>" : "<ul class=\"goals\">\(rows)</ul>")
            <div class="total"><div class="row"><strong>Total (\(escape(display.code)))</strong><span>\(total(status.contributedDisplay)) of \(total(status.plannedDisplay))</span></div>
            \(bar(status.contributedDisplay ?? 0, of: status.plannedDisplay ?? 0))
            <div class="row small"><span>remaining \(total(status.remainingDisplay))</span></div></div>
            </section>
            """
    }

    /// The portfolio's figures and the charts drawn by the server (inline SVG, no script).
    private static func portfolio(_ dashboard: Dashboard) -> String {
        guard let (report, charts) = dashboard.portfolio, !report.assets.isEmpty else { return "" }
        let currency = report.currency
        let money = { (minor: Int64?) in minor.map { escape(DisplayFormat.money($0, currency)) } ?? "<span class=\"warn\">no rate</span>" }
        let total = report.total
        let figures = """
            <div class="figures"><span>value <strong>\(money(total.value))</strong></span><span>cost basis \(money(total.costBasis))</span>\
            <span>unrealized \(money(total.unrealizedGain))</span><span>realized \(money(total.realizedGain))</span>\
            <span>time-weighted return \(total.timeWeightedReturn.map { escape(DisplayFormat.percent($0)) } ?? "–")</span></div>
            """
        return """
            <section><h2>Portfolio and goals over time</h2>\(figures)<div class="charts">\(charts.all.map(\.inlineSVG).joined())</div></section>
            """
    }

    private static func assets(_ dashboard: Dashboard, _ zone: TimeZone) -> String {
        let rows = dashboard.assets.map { overview -> String in
            let asset = overview.asset
            let age = overview.balance.lastUpdated.map { DisplayFormat.age(seconds: dashboard.now.seconds(since: $0)) } ?? "–"
            let pending = overview.balance.pending == 0 ? "–" : DisplayFormat.money(overview.balance.pending, asset.currency)
            return "<tr><td>\(escape(asset.name))</td><td class=\"num\">\(escape(DisplayFormat.money(overview.balance.counted, asset.currency)))</td><td class=\"num\">\(escape(pending))</td><td class=\"num\">\(escape(age))</td></tr>"
        }.joined()
        return "<section><h2>Assets</h2><table><thead><tr><th>Asset</th><th class=\"num\">Balance</th><th class=\"num\">Pending</th><th class=\"num\">Age</th></tr></thead><tbody>\(rows)</tbody></table></section>"
    }

    private static func sources(_ dashboard: Dashboard, _ zone: TimeZone) -> String {
        guard !dashboard.sources.isEmpty else { return "" }
        let rows = dashboard.sources.map { source -> String in
            guard let run = source.lastRun else { return "<tr><td>\(escape(source.name))</td><td class=\"muted\">not ingested yet</td><td></td></tr>" }
            let result = run.ok ? "<span class=\"ok\">ok</span> +\(run.counts.new) new, \(run.counts.updated) updated"
                : "<span class=\"warn\">failed</span> \(escape(run.error ?? ""))"
            return "<tr><td>\(escape(source.name))</td><td>\(result)</td><td class=\"num\">\(escape(DisplayFormat.age(seconds: dashboard.now.seconds(since: run.finishedAt)))) ago</td></tr>"
        }.joined()
        return "<section><h2>Sources</h2><table><tbody>\(rows)</tbody></table></section>"
    }

    private static func transactions(_ dashboard: Dashboard, _ zone: TimeZone) -> String {
        let rows = dashboard.latest.map { listing -> String in
            let tx = listing.transaction
            let tags = listing.tags.map { "<span class=\"tag\">\(escape($0))</span>" }.joined(separator: " ")
            return "<tr><td>\(escape(DisplayFormat.time(tx.date, zone)))</td><td>\(escape(listing.assetName))</td><td class=\"num\(tx.amount < 0 ? " out" : "")\">\(escape(listing.money.description))</td><td>\(escape(tx.status.rawValue))</td><td>\(tags)</td></tr>"
        }.joined()
        return "<section><h2>Latest transactions</h2><table><thead><tr><th>Date</th><th>Asset</th><th class=\"num\">Amount</th><th>Status</th><th>Tags</th></tr></thead><tbody>\(rows)</tbody></table></section>"
    }

    /// A bar filled to value/total.
    private static func bar(_ value: Int64, of total: Int64) -> String {
        let percent = Int((DisplayFormat.fill(value, of: total) * 100).rounded())
        return "<div class=\"bar\" role=\"progressbar\" aria-valuenow=\"\(percent)\" aria-valuemin=\"0\" aria-valuemax=\"100\"><div style=\"width:\(percent)%\"></div></div>"
    }

    /// Text safe inside HTML elements and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    static let style = """
        :root{--fg:#1d2430;--muted:#6b7280;--bg:#f7f7f5;--card:#fff;--accent:#2e86de;--ok:#1f9d55;--warn:#c0392b}
        @media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--muted:#9aa3af;--bg:#111418;--card:#1b2027}}
        *{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
        main{max-width:960px;margin:0 auto;padding:12px}header h1{margin:8px 0 0;font-size:1.6em}
        section{background:var(--card);border-radius:10px;padding:12px 14px;margin:12px 0;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        h2{font-size:1.05em;margin:0 0 8px}.muted{color:var(--muted)}.small{font-size:.85em;color:var(--muted)}
        .goals{list-style:none;margin:0;padding:0}.goal{margin:0 0 12px}.row{display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap}
        .bar{height:12px;background:rgba(127,127,127,.2);border-radius:6px;overflow:hidden;margin:4px 0}.bar div{height:100%;background:var(--accent)}
        .closed .bar div{background:var(--ok)}.total{border-top:1px solid rgba(127,127,127,.25);padding-top:8px}
        table{width:100%;border-collapse:collapse;font-size:.92em}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid rgba(127,127,127,.15)}
        .num{text-align:right;white-space:nowrap}.out{color:var(--warn)}.ok{color:var(--ok)}.warn{color:var(--warn)}
        .tag{display:inline-block;background:rgba(46,134,222,.15);border-radius:8px;padding:0 6px;font-size:.85em}
        .figures{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:.9em;margin-bottom:4px}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:4px 16px}.chart{display:block;width:100%;height:auto;margin:6px 0}
        footer{max-width:960px;margin:0 auto;padding:0 14px 16px;font-size:.8em;color:var(--muted)}
        @media (max-width:600px){table{font-size:.8em}th:nth-child(4),td:nth-child(4){display:none}}
        """

    static let script = """
        (function(){
          var live=document.getElementById('live');
          var busy=false,again=false;
          function refresh(){
            if(busy){again=true;return}
            busy=true;
            fetch('fragment',{cache:'no-store',credentials:'same-origin'}).then(function(r){return r.ok?r.text():null}).then(function(html){
              if(html!==null){document.getElementById('dashboard').innerHTML=html;live.textContent='live · updated '+new Date().toLocaleTimeString()}
            }).catch(function(){}).then(function(){busy=false;if(again){again=false;refresh()}});
          }
          var events=new EventSource('events');
          events.addEventListener('change',refresh);
          events.onopen=function(){live.textContent='live'};
          events.onerror=function(){live.textContent='reconnecting…'};
        })();
        """
}
