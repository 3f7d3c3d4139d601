import Prometheus
import Synchronization
import WalletWatchCore
import WalletWatchEngine

/// `/metrics` in Prometheus text format: ingest runs and failures per source (from the
/// database, so passes of `walletwatch ingest` in other processes count too), the last
/// successful pass, the daemon's HTTP retries, the transactions stored, and each goal's
/// progress this month.
final class MetricsExporter: Sendable {
    private let registry = PrometheusCollectorRegistry()
    /// Counters only go up: the totals already emitted, to add only what is new.
    private let emitted = Mutex<[String: Int64]>([:])
    /// The goal gauges of the last scrape, so that a goal gone from the month (skipped,
    /// deleted, the next month started) disappears instead of repeating its last value.
    private let goalGauges = Mutex<[String: Gauge]>([:])

    func render(_ engine: Engine) async throws -> String {
        for totals in try engine.activity.ingestRunTotals() {
            let labels = [("source", totals.source)]
            advance(registry.makeCounter(descriptor: Self.name("ingest", "runs", "total", "Ingest passes of a source, successful or not."),
                                         labels: labels),
                    key: "runs/\(totals.source)", to: Int64(totals.succeeded + totals.failed))
            advance(registry.makeCounter(descriptor: Self.name("ingest", "failures", "total", "Ingest passes of a source that failed."),
                                         labels: labels),
                    key: "failures/\(totals.source)", to: Int64(totals.failed))
            if let last = totals.lastSuccess {
                registry.makeGauge(descriptor: Self.name("ingest", "last_success_timestamp", "seconds",
                                                         "When a pass of the source last succeeded (Unix time)."), labels: labels)
                    .set(Double(last.millisecondsSinceEpoch) / 1000)
            }
        }
        advance(registry.makeCounter(descriptor: Self.name("http", "retries", "total", "HTTP requests this process retried.")),
                key: "http-retries", to: Int64(engine.activity.httpRetries))
        registry.makeGauge(descriptor: Self.name(nil, "transactions_stored", "", "Transactions in the ledger."))
            .set(Double(try engine.activity.transactionCount()))
        let status = try await engine.month.status(refreshRates: .never)
        var gauges: [String: Gauge] = [:]
        for goal in status.goals {
            let figures = goal.figures
            let gauge = registry.makeGauge(
                descriptor: Self.name("goal", "month_progress", "ratio",
                                      "What a goal received this month divided by what was planned (1 when nothing was planned)."),
                labels: [("goal", goal.name)])
            gauge.set(figures.planned == 0 ? 1 : Double(figures.contributed) / Double(figures.planned))
            gauges[goal.name] = gauge
        }
        let gone = goalGauges.withLock { previous in
            defer { previous = gauges }
            return previous.filter { gauges[$0.key] == nil }.map(\.value)
        }
        for gauge in gone { registry.unregisterGauge(gauge) }
        return registry.emitToString()
    }

    /// `walletwatch_<subsystem>_<metric>_<unit>`, with its help text.
    private static func name(_ subsystem: String?, _ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "walletwatch", subsystem: subsystem, metricName: metric, unitName: unit, helpText: help)
    }

    private func advance(_ counter: Counter, key: String, to total: Int64) {
        let delta = emitted.withLock { emitted -> Int64 in
            let delta = max(0, total - (emitted[key] ?? 0))
            emitted[key] = max(total, emitted[key] ?? 0)
            return delta
        }
        if delta > 0 { counter.increment(by: delta) }
    }
}
