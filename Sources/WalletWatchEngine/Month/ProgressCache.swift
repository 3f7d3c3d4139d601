import Synchronization
import WalletWatchCore

/// The last computed status of the executing month, reused while nothing changed: dropped
/// when the change counter moves (a transaction, allocation, goal or plan changed) or a rate
/// moved by more than 1% since it was computed. Whether the rates are stale is told as it is
/// now: a status computed with fresh rates is dropped once they grew too old, and one computed
/// with stale rates once they were refreshed, so that every process says the same.
public final class ProgressCache: Sendable {
    private struct Entry: Sendable {
        let recordID: Int64
        let counter: Int64
        let displayCurrency: Currency
        let rates: RateTable
        let status: MonthStatus
    }

    private let entry = Mutex<Entry?>(nil)
    private let computed = Mutex(0)

    public init() {}

    /// How many times the status was computed rather than reused (for tests and metrics).
    public var computations: Int { computed.withLock { $0 } }

    func lookup(recordID: Int64, counter: Int64, displayCurrency: Currency, rates: RateTable) -> MonthStatus? {
        entry.withLock { entry in
            guard let entry, entry.recordID == recordID, entry.counter == counter, entry.displayCurrency == displayCurrency,
                  !rates.movedMoreThan(0.01, since: entry.rates) else { return nil }
            if entry.status.ratesStale {
                guard rates.rates == entry.rates.rates else { return nil }
            } else if let asOf = entry.status.ratesAsOf, rates.now.seconds(since: asOf) > rates.maxAgeSeconds {
                return nil
            }
            return entry.status
        }
    }

    func store(recordID: Int64, counter: Int64, displayCurrency: Currency, rates: RateTable, status: MonthStatus) {
        computed.withLock { $0 += 1 }
        entry.withLock { $0 = Entry(recordID: recordID, counter: counter, displayCurrency: displayCurrency, rates: rates, status: status) }
    }
}
