import Synchronization
import WalletWatchEngine

/// The charts of the live views' last portfolio report, drawn again only when the engine hands
/// out a new report (its ``PortfolioReport/revision`` changed). A view that redraws on every
/// change of the database owns one.
public final class PortfolioChartsCache: Sendable {
    private let last = Mutex<(revision: Int, charts: PortfolioCharts)?>(nil)

    public init() {}

    /// The charts of `report`, drawn now or reused from the same revision.
    public func charts(for report: PortfolioReport?) -> PortfolioCharts? {
        guard let report else { return nil }
        guard report.revision != 0 else { return PortfolioCharts(report) }
        return last.withLock { last in
            if let last, last.revision == report.revision { return last.charts }
            let charts = PortfolioCharts(report)
            last = (report.revision, charts)
            return charts
        }
    }
}
