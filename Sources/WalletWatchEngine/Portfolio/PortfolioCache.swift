import Synchronization
import WalletWatchCore
import WalletWatchStore

/// The web page's last portfolio report and charts, reused until something they depend on
/// changes: a transaction, allocation or goal (the change counter), the rate history, the
/// currency or the day. The page redraws on every database change (ingest runs included),
/// and reading a long rate history each time would cost more than drawing it.
public final class PortfolioCache: Sendable {
    struct Key: Hashable, Sendable {
        let counter: Int64
        let rateVersion: Int64
        let currency: Currency
        let day: Day
    }

    private struct Entry: Sendable {
        let key: Key
        let report: PortfolioReport
        let charts: PortfolioCharts
    }

    private let entry = Mutex<Entry?>(nil)
    private let computed = Mutex(0)

    public init() {}

    /// How many times the report was computed rather than reused (for tests).
    public var computations: Int { computed.withLock { $0 } }

    func lookup(_ key: Key) -> (PortfolioReport, PortfolioCharts)? {
        entry.withLock { entry in entry.flatMap { $0.key == key ? ($0.report, $0.charts) : nil } }
    }

    func store(_ key: Key, report: PortfolioReport, charts: PortfolioCharts) {
        computed.withLock { $0 += 1 }
        entry.withLock { $0 = Entry(key: key, report: report, charts: charts) }
    }
}

extension Engine {
    /// The portfolio report and charts for the live views: stored rates only (the page must
    /// not wait for a provider), reused while nothing they depend on changed.
    public func cachedPortfolio() async throws -> (report: PortfolioReport, charts: PortfolioCharts) {
        let key = PortfolioCache.Key(counter: try database.changeCounter(), rateVersion: try database.rateHistoryVersion(),
                                     currency: try displayCurrency(), day: clock.now.day)
        if let cached = portfolioCache.lookup(key) { return cached }
        let report = try await portfolioReport(currency: key.currency, refresh: .never)
        let charts = PortfolioCharts(report)
        portfolioCache.store(key, report: report, charts: charts)
        return (report, charts)
    }
}
