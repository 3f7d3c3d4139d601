import WalletWatchCore
import WalletWatchStore

/// What the live views show, from the same calculator as `month status`: per goal planned,
/// contributed and remaining; the month's total; each asset's balance with its age and pending
/// amount; the last ingest of each source; the latest transactions with their tags.
public struct Dashboard: Sendable {
    /// One configured source and how its last ingest went.
    public struct SourceLine: Sendable {
        public let name: String
        public let kind: SourceConfig.Kind
        public let lastRun: IngestRun?
    }

    public let now: Instant
    public let status: MonthStatus
    public let assets: [AssetOverview]
    public let sources: [SourceLine]
    public let latest: [TransactionListing]
    public let timeZone: String
    /// The portfolio figures and charts (value over time, goals' funded values over time);
    /// nil when they could not be computed (the reason is logged).
    public let portfolio: (report: PortfolioReport, charts: PortfolioCharts)?

    /// How many transactions the views list.
    public static let latestCount = 10
}

extension Engine {
    /// Everything the live views show, read now. Views that redraw on every change pass
    /// `.never` and leave fetching rates to something else (the daemon's rate loop, `watch`'s
    /// own refresher): a slow or failing price API must not hold up a redraw.
    public func dashboard(refreshRates: RateRefresh = .ifNeeded) async throws -> Dashboard {
        let status = try await monthStatus(refreshRates: refreshRates)
        let runs = try database.lastIngestRuns()
        var portfolio: (PortfolioReport, PortfolioCharts)?
        do {
            portfolio = try await cachedPortfolio()
        } catch {
            logger.warning("the portfolio charts could not be computed: \(error)")
        }
        return Dashboard(
            now: clock.now, status: status, assets: try database.assetOverviews(),
            sources: config.sources.map { Dashboard.SourceLine(name: $0.name, kind: $0.kind, lastRun: runs[$0.name]) },
            latest: try database.transactions(TransactionFilter(limit: Dashboard.latestCount)),
            timeZone: displayTimeZone.identifier, portfolio: portfolio)
    }

    /// Yields once at the start and then whenever the database changed (any process),
    /// checking every `interval` (500 ms by default: views redraw well within 2 s).
    public func changes(every interval: Duration = .milliseconds(500)) -> AsyncStream<Int64> {
        let path = database.path
        let logger = self.logger
        return AsyncStream { continuation in
            let task = Task {
                guard let path, let monitor = try? ChangeMonitor(path: path) else {
                    continuation.yield(0)
                    continuation.finish()
                    return
                }
                var last: Int64? = nil
                while !Task.isCancelled {
                    do {
                        let version = try monitor.version()
                        if version != last {
                            last = version
                            continuation.yield(version)
                        }
                    } catch {
                        logger.warning("could not check the database for changes: \(error)")
                    }
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
