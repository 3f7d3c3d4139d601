import Synchronization
import WalletWatchCore
import WalletWatchStore

/// The live views' last portfolio report, reused until something it depends on changes: a
/// transaction, allocation or goal (the change counter), the rate history, the currency or the
/// day. The page redraws on every database change (ingest runs included), and reading a long
/// rate history each time would cost more than drawing it.
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
    }

    private let entry = Mutex<Entry?>(nil)
    private let computed = Mutex(0)

    public init() {}

    /// How many times the report was computed rather than reused (for tests).
    public var computations: Int { computed.withLock { $0 } }

    func lookup(_ key: Key) -> PortfolioReport? {
        entry.withLock { entry in entry.flatMap { $0.key == key ? $0.report : nil } }
    }

    /// Stores a new report and returns its revision: a number that changes with every
    /// computation, so a view can keep what it drew from one report until the next.
    func store(_ key: Key, report: (Int) -> PortfolioReport) -> PortfolioReport {
        let revision = computed.withLock { count in
            count += 1
            return count
        }
        let stored = report(revision)
        entry.withLock { $0 = Entry(key: key, report: stored) }
        return stored
    }
}
