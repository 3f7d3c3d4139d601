import Mustache
import WalletWatchCore
import WalletWatchEngine

/// The web page: the dashboard rendered by the server from Mustache templates, with its style
/// and a few lines of script inline (no external assets), readable on a phone. The script
/// listens to `/events` and swaps in a fresh `/fragment` on every change, so the page updates
/// without a reload.
///
/// The templates escape every value for HTML by default (`{{value}}`); the only value inserted
/// as markup (`{{{chartsSVG}}}`) is the charts' SVG, which walletwatch draws itself.
public enum DashboardPage {
    /// The whole page.
    public static func document(_ dashboard: Dashboard, charts: PortfolioCharts?) -> String {
        render("document", DashboardView(dashboard, charts: charts))
    }

    /// The part of the page that changes: swapped in by the script on every event.
    public static func fragment(_ dashboard: Dashboard, charts: PortfolioCharts?) -> String {
        render("fragment", DashboardView(dashboard, charts: charts))
    }

    private static func render(_ name: String, _ view: DashboardView) -> String {
        guard let text = templates.render(view, withTemplate: name) else { preconditionFailure("the template \(name) is compiled in") }
        return text
    }

    /// The templates, compiled once: they are constants of the program (a typo in one fails
    /// the first render in every test, never a user's request alone).
    private static let templates: MustacheLibrary = {
        do {
            return MustacheLibrary(templates: [
                "document": try MustacheTemplate(string: DashboardTemplates.document),
                "fragment": try MustacheTemplate(string: DashboardTemplates.fragment),
                "bar": try MustacheTemplate(string: DashboardTemplates.bar),
            ])
        } catch {
            preconditionFailure("a dashboard template does not parse: \(error)")
        }
    }()
}
