import Logging
import WalletWatchCore
import WalletWatchStore

/// What the live views (`watch`, the web page) show, and when the database changed.
public struct LiveView: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let preferences: Preferences
    let month: MonthService
    let reports: Reports
    let savingPlans: SavingPlans
    let valuer: TransactionValuer
    let logger: Logger

    init(database: AppDatabase, config: AppConfig, clock: WallClock, preferences: Preferences, month: MonthService, reports: Reports,
         savingPlans: SavingPlans, valuer: TransactionValuer, logger: Logger) {
        self.database = database
        self.config = config
        self.clock = clock
        self.preferences = preferences
        self.month = month
        self.reports = reports
        self.savingPlans = savingPlans
        self.valuer = valuer
        self.logger = logger
    }

    /// Everything the live views show, read now. Views that redraw on every change pass
    /// `.never` and leave fetching rates to something else (the daemon's rate loop, `watch`'s
    /// own refresher): a slow or failing price API must not hold up a redraw.
    public func dashboard(refreshRates: RateRefresh = .ifNeeded) async throws -> Dashboard {
        let status = try await month.status(refreshRates: refreshRates)
        let runs = try database.lastIngestRuns()
        var portfolio: PortfolioReport?
        do {
            portfolio = try await reports.cachedPortfolio()
        } catch {
            logger.warning("the portfolio charts could not be computed: \(error)")
        }
        return Dashboard(
            now: clock.now, status: status, assets: try database.assetOverviews(),
            sources: config.sources.map { Dashboard.SourceLine(name: $0.name, kind: $0.kind, lastRun: runs[$0.name]) },
            latest: try valuer.valued(database.transactions(TransactionFilter(limit: Dashboard.latestCount))),
            timeZone: preferences.displayTimeZone.identifier, portfolio: portfolio, savingPlans: try savingPlans.listings())
    }

    /// Yields once at the start and then whenever the database changed (any process),
    /// checking every `interval` (500 ms by default: views redraw well within 2 s).
    public func changes(every interval: Duration = .milliseconds(500)) -> AsyncStream<Int64> {
        let logger = self.logger
        return AsyncStream { continuation in
            let task = Task {
                guard let monitor = try? database.changeMonitor() else {
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
