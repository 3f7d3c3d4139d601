/// The page's Mustache templates. `{{name}}` is escaped for HTML; `{{{chartsSVG}}}` is the one
/// value inserted as markup (see ``DashboardView/Portfolio/chartsSVG``).
enum DashboardTemplates {
    static let document = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>walletwatch · {{month}}</title>
        <style>\(style)</style>
        </head>
        <body>
        <main id="dashboard">{{> fragment}}</main>
        <footer><span id="live" class="muted">connecting…</span> · walletwatch</footer>
        <script>\(script)</script>
        </body>
        </html>
        """

    static let fragment = """
        <header><h1>{{month}}</h1><p class="muted">{{stateLine}}</p></header>
        <section><h2>Goals this month</h2>
        {{^goals}}<p class="muted">No goals in this month's plan.</p>{{/goals}}
        {{#hasGoals}}<ul class="goals">{{#goals}}
        <li class="goal{{#closed}} closed{{/closed}}">
        <div class="row"><strong>{{name}}</strong><span>{{percent}}</span></div>
        {{#bar}}{{> bar}}{{/bar}}
        <div class="row small"><span>planned {{planned}}</span><span>contributed {{contributed}}</span></div>
        <div class="row small"><span>remaining {{remaining}}</span>{{#remainingDisplay}}<span>{{.}}</span>{{/remainingDisplay}}{{^remainingDisplay}}<span class="warn">{{noRate}}</span>{{/remainingDisplay}}</div>
        </li>{{/goals}}</ul>{{/hasGoals}}
        {{#total}}<div class="total"><div class="row"><strong>Total ({{currency}})</strong><span>{{contributed}} of {{planned}}</span></div>
        {{#bar}}{{> bar}}{{/bar}}
        <div class="row small"><span>remaining {{remaining}}</span></div></div>{{/total}}
        </section>
        {{#nextPlan}}<section id="next-plan"><h2>Next saving plan</h2><p>{{.}}</p></section>{{/nextPlan}}
        {{#portfolio}}<section><h2>Portfolio and goals over time</h2><div class="figures">{{#figures}}<span>{{label}} {{#value}}{{#strong}}<strong>{{.}}</strong>{{/strong}}{{^strong}}{{.}}{{/strong}}{{/value}}{{^value}}<span class="warn">{{noRate}}</span>{{/value}}</span>{{/figures}}<span>time-weighted return {{timeWeightedReturn}}</span></div><div class="charts">{{{chartsSVG}}}</div></section>{{/portfolio}}
        <section><h2>Assets</h2><table class="reflow"><thead><tr><th>Asset</th><th class="num">Balance</th><th class="num">Pending</th><th class="num">Age</th></tr></thead><tbody>{{#assets}}<tr><td class="lead">{{name}}</td><td class="num" data-label="Balance">{{balance}}</td><td class="num" data-label="Pending">{{pending}}</td><td class="num" data-label="Age">{{age}}</td></tr>{{/assets}}</tbody></table></section>
        {{#hasSources}}<section><h2>Sources</h2><table class="reflow"><tbody>{{#sources}}<tr><td class="lead">{{name}}</td>{{#run}}<td class="text">{{#ok}}<span class="ok">ok</span> +{{new}} new, {{updated}} updated{{/ok}}{{^ok}}<span class="warn">failed</span> {{error}}{{/ok}}</td><td class="num">{{age}} ago</td>{{/run}}{{^run}}<td class="muted text">not ingested yet</td><td></td>{{/run}}</tr>{{/sources}}</tbody></table></section>{{/hasSources}}
        <section><h2>Latest transactions</h2><table class="reflow"><thead><tr><th>Date</th><th>Asset</th><th class="num">Amount</th><th class="num">Value then</th><th>Status</th><th>Tags</th></tr></thead><tbody>{{#transactions}}<tr><td class="lead" data-label="Date">{{date}}</td><td data-label="Asset">{{asset}}</td><td class="num{{#outgoing}} out{{/outgoing}}" data-label="Amount">{{amount}}</td><td class="num" data-label="Value then">{{value}}</td><td data-label="Status">{{status}}</td><td data-label="Tags">{{#tags}}<span class="tag">{{.}}</span> {{/tags}}</td></tr>{{/transactions}}</tbody></table></section>
        """

    /// A bar filled to `percent`.
    static let bar = """
        <div class="bar" role="progressbar" aria-valuenow="{{percent}}" aria-valuemin="0" aria-valuemax="100"><div style="width:{{percent}}%"></div></div>
        """

    /// The page's style sheet (light and dark, narrow screens). On a phone (600 px and less) the
    /// tables reflow: each row becomes a card of "label value" lines, so that nothing is wider
    /// than the screen. Text that has no space to break at (an error with a long URL, an
    /// address, a tag) breaks anywhere rather than widening the page; in a wide table only the
    /// error and the tags do, so that the other columns keep their words whole.
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
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(300px,100%),1fr));gap:4px 16px}.chart{display:block;width:100%;height:auto;margin:6px 0}
        footer{max-width:960px;margin:0 auto;padding:0 14px 16px;font-size:.8em;color:var(--muted)}
        main{overflow-wrap:break-word}td.text,.tag{overflow-wrap:anywhere}.tag{max-width:100%}
        @media (max-width:600px){
        table.reflow td{overflow-wrap:anywhere}
        table.reflow,table.reflow tbody,table.reflow tr,table.reflow td{display:block;width:100%}table.reflow thead{display:none}
        table.reflow tr{padding:6px 0;border-bottom:1px solid rgba(127,127,127,.25)}table.reflow td{border:0;padding:1px 0}
        table.reflow td[data-label]{display:flex;justify-content:space-between;gap:12px;text-align:right;white-space:normal}
        table.reflow td[data-label]::before{content:attr(data-label);color:var(--muted);text-align:left;flex:none}
        table.reflow td.lead{font-weight:600}table.reflow td.text{text-align:left}
        }
        """

    /// Swaps in a fresh fragment on every change event; says whether the page is live.
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
