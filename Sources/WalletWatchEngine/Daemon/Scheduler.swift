import Logging
import ServiceLifecycle
import WalletWatchCore
import WalletWatchSources

/// The daemon's work (`walletwatch run`): each source ingested on its interval, with jitter,
/// backing off after failures (2, 4, then 8 intervals; back to 1 after a success); barkd's
/// long poll wakes its source at once when a movement is created or updated, and an Electrum
/// server's notifications wake theirs (``ElectrumWatcher``, one subscribed session per
/// electrum source, which the source's passes share), and Arkade's streams wake fulmine and
/// arkd sources (``ArkadeWatcher``); rates refreshed
/// on their own interval; the daily price history backfilled at start and topped up on each
/// new UTC day (a failure is logged and retried later, never fatal); backups made on
/// `[backup] every_hours` (``BackupSchedule``); saving plans brought up to date every minute
/// and after each ingest pass (``SavingPlans/catchUp()``: due dates handled, reminders decided
/// as soon as the deposit is in); the notifications outbox delivered to each `[[notify]]`
/// target beside all this (``Notifier``), never holding up an ingest.
///
/// Graceful shutdown (SIGINT/SIGTERM) stops new work and wakes every waiting loop; an ingest
/// already running is cancelled (between an Electrum or Esplora wallet's rounds, or in its
/// transfers) and gives its pass up, leaving nothing of it: the database is never left
/// half-written.
public struct Scheduler: Service {
    let engine: Engine
    let backfillTiming: BackfillTiming
    let onReport: @Sendable (IngestReport) -> Void

    /// When the daemon looks for a new day to backfill, and how long it waits after a failure.
    public struct BackfillTiming: Sendable {
        /// How often the ledger's span is checked for a new UTC day or an older transaction (a
        /// cheap read).
        public var check: Duration
        /// The first wait after a failed backfill; it doubles with each failure in a row, up
        /// to `maxRetry`.
        public var retry: Duration
        public var maxRetry: Duration

        public init(check: Duration = .seconds(60), retry: Duration = .seconds(300), maxRetry: Duration = .seconds(6 * 3600)) {
            self.check = check
            self.retry = retry
            self.maxRetry = maxRetry
        }
    }

    /// - parameter backfillTiming: when the price history is topped up and retried (tests
    ///   shorten it).
    /// - parameter onReport: called after every ingest (for metrics and tests).
    public init(engine: Engine, backfillTiming: BackfillTiming = BackfillTiming(), onReport: @escaping @Sendable (IngestReport) -> Void = { _ in }) {
        self.engine = engine
        self.backfillTiming = backfillTiming
        self.onReport = onReport
    }

    /// How much longer than the interval the next ingest waits after `failures` failures in a row.
    public static func backoffFactor(failures: Int) -> Int {
        failures == 0 ? 1 : min(8, 1 << min(failures, 3))
    }

    public func run() async throws {
        let sources = engine.config.sources
        let wakeups = Dictionary(uniqueKeysWithValues: sources.map { ($0.name, Wakeup()) })
        let rateWakeup = Wakeup()
        let backfillWakeup = Wakeup()
        let backupWakeup = Wakeup()
        let notifyWakeup = Wakeup()
        let planWakeup = Wakeup()
        engine.logger.info("daemon started", metadata: ["sources": "\(sources.map(\.name).joined(separator: ","))"])
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                for source in sources {
                    let wakeup = wakeups[source.name]!
                    group.addTask { await ingestLoop(source, wakeup: wakeup, plans: planWakeup) }
                    if source.kind == .barkd {
                        group.addTask { await cancelWhenGracefulShutdown { await notificationLoop(source, wakeup: wakeup) } }
                    }
                    if source.kind == .fulmine || source.kind == .arkd {
                        let watcher = ArkadeWatcher(source: source, clients: engine.clients, logger: engine.logger)
                        group.addTask { await cancelWhenGracefulShutdown { await watcher.run(wakeup: wakeup, stopping: { Self.isStopping }) } }
                    }
                    if source.kind == .electrum {
                        let watcher = ElectrumWatcher(source: source, clients: engine.clients, logger: engine.logger)
                        group.addTask { await cancelWhenGracefulShutdown { await watcher.run(wakeup: wakeup, stopping: { Self.isStopping }) } }
                    }
                }
                group.addTask { await rateLoop(rateWakeup) }
                group.addTask { await backfillLoop(backfillWakeup) }
                group.addTask { await planLoop(planWakeup) }
                group.addTask {
                    await engine.backupSchedule.run(stopping: { stopping }, pause: { await backupWakeup.wait(for: $0) })
                }
                // Cancelled at shutdown: a target that is slow to answer (or never answers)
                // must not hold the daemon up; its delivery stays pending and is sent again,
                // with the same id, when the daemon runs next.
                group.addTask {
                    await cancelWhenGracefulShutdown {
                        await engine.notifier.run(stopping: { Self.isStopping }, pause: { await notifyWakeup.wait(for: $0) })
                    }
                }
                // The daemon lasts until it is told to stop, even with nothing to schedule (no
                // sources, static rates): `serve` must keep its web view up for manual assets.
                group.addTask { try? await gracefulShutdown() }
            }
        } onGracefulShutdown: {
            engine.logger.info("shutting down: no new ingest starts; a running one finishes")
            Task {
                for wakeup in Array(wakeups.values) + [rateWakeup, backfillWakeup, backupWakeup, notifyWakeup, planWakeup] {
                    await wakeup.close()
                }
            }
        }
        engine.logger.info("daemon stopped")
    }

    private var stopping: Bool { Self.isStopping }

    private static var isStopping: Bool { Task.isShuttingDownGracefully || Task.isCancelled }

    private func ingestLoop(_ source: SourceConfig, wakeup: Wakeup, plans: Wakeup) async {
        var failures = 0
        while !stopping {
            // Cancelled at shutdown: a pass that would not end on its own (a server that keeps
            // the window growing, one that never stops answering) must not hold the daemon up.
            // A pass is stored whole or not at all, so a cancelled one leaves nothing behind.
            let ingestor = engine.ingestor
            let report = await cancelWhenGracefulShutdown { await ingestor.ingest(source, full: false) }
            guard !stopping else { break }
            onReport(report)
            // A deposit just ingested may fulfil a reminder: decide it now, not within the minute.
            if report.ok, report.counts.new + report.counts.updated > 0 { await plans.fire() }
            failures = report.ok ? 0 : failures + 1
            let factor = Self.backoffFactor(failures: failures)
            // An evm source's interval is the chain's block time: its jitter only shortens it, so
            // that a payment shows within a block and a second (SPEC.md section 26).
            let delay = Self.jittered(.seconds(source.intervalSeconds * factor), upward: source.kind != .evm || failures > 0)
            if !report.ok {
                engine.logger.notice("source failed; next attempt later", metadata: [
                    "source": "\(source.name)", "failures": "\(failures)", "next_in_s": "\(delay.components.seconds)",
                ])
            }
            guard !stopping else { break }
            await wakeup.wait(for: delay)
        }
    }

    /// barkd's long poll: any movement created or updated wakes the source's ingest at once.
    private func notificationLoop(_ source: SourceConfig, wakeup: Wakeup) async {
        var since: String? = nil
        var failures = 0
        while !stopping {
            do {
                let client = try engine.ingestor.clients.barkd(source)
                let batch = try await client.waitForNotifications(since: since, timeout: .seconds(90))
                failures = 0
                // Any notification counts, also channel-lagging (some were lost: look at
                // everything again). The first answer may replay barkd's buffer of older ones;
                // an extra pass then changes nothing and costs little.
                if !batch.notifications.isEmpty {
                    engine.logger.info("barkd notified a movement; ingesting now", metadata: ["source": "\(source.name)"])
                    await wakeup.fire()
                }
                since = batch.lastPushedAt ?? since
            } catch {
                guard !stopping else { break }
                failures += 1
                let pause = min(60, 1 << min(failures, 6))
                engine.logger.warning("notification long poll failed; retrying", metadata: [
                    "source": "\(source.name)", "error": "\((error as? any Classified)?.description ?? "\(error)")", "retry_in_s": "\(pause)",
                ])
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }

    private func rateLoop(_ wakeup: Wakeup) async {
        while !stopping {
            do {
                let refreshed = try await engine.rates.refresh()
                engine.logger.info("rates refreshed", metadata: ["pairs": "\(refreshed.rates.count)", "provider": "\(refreshed.provider)"])
                for warning in refreshed.warnings { engine.logger.warning("\(warning)") }
            } catch {
                engine.logger.warning("rates refresh failed", metadata: ["error": "\((error as? any Classified)?.description ?? "\(error)")"])
            }
            guard !stopping else { break }
            // Static rates never change: stored once at start.
            if engine.config.rates.provider == .static { break }
            await wakeup.wait(for: .seconds(engine.config.rates.maxAgeSeconds))
        }
    }

    /// The price history: backfilled as soon as the ledger has a transaction, then again
    /// whenever its span (first transaction's day through today) grows (a new UTC day, an
    /// older transaction found) or a pair joins the pricing plan (a coin or a currency comes
    /// into use). A failed backfill is logged and tried again after a pause that
    /// doubles with each failure in a row; the days it stored are kept.
    private func backfillLoop(_ wakeup: Wakeup) async {
        guard engine.config.rates.provider != .static else { return }
        var done: (span: ClosedRange<Day>, pairs: [CurrencyPair])?
        var failures = 0
        while !stopping {
            var pause = backfillTiming.check
            if let span = try? engine.backfill.span(), let pairs = try? engine.backfill.pairs(),
               done.map({ $0.span != span || $0.pairs != pairs }) ?? true {
                do {
                    let result = try await engine.backfill.run(since: span.lowerBound)
                    done = (span, pairs)
                    failures = 0
                    engine.logger.info("rates backfilled", metadata: [
                        "provider": "\(result.provider)", "requests": "\(result.requests)",
                        "days_added": "\(result.pairs.reduce(0) { $0 + $1.daysAdded })",
                    ])
                    for warning in result.warnings { engine.logger.warning("\(warning)") }
                } catch {
                    failures += 1
                    pause = min(backfillTiming.maxRetry, backfillTiming.retry * (1 << min(failures - 1, 16)))
                    engine.logger.warning("rates backfill failed; retrying later", metadata: [
                        "error": "\((error as? any Classified)?.description ?? "\(error)")", "failures": "\(failures)",
                        "retry_in_s": "\(pause.components.seconds)",
                    ])
                }
            }
            guard !stopping else { break }
            await wakeup.wait(for: pause)
        }
    }

    /// Saving plans: brought up to date at start (catching up after downtime), then every
    /// minute (a due date begins at midnight UTC) and whenever an ingest brought something new.
    /// A failure is logged and tried again on the next round.
    private func planLoop(_ wakeup: Wakeup) async {
        while !stopping {
            do {
                let activity = try engine.savingPlans.catchUp()
                for entry in activity.entries {
                    engine.logger.info("saving plan", metadata: [
                        "plan": "\(entry.plan)", "due": "\(entry.due)", "status": "\(entry.status.rawValue)",
                        "txids": "\(entry.txids.joined(separator: ","))", "notified": "\(entry.notified)",
                    ])
                }
                for warning in activity.warnings { engine.logger.warning("\(warning)") }
            } catch {
                engine.logger.warning("saving plans could not be brought up to date", metadata: [
                    "error": "\((error as? any Classified)?.description ?? "\(error)")",
                ])
            }
            guard !stopping else { break }
            await wakeup.wait(for: .seconds(60))
        }
    }

    /// `duration` within plus or minus 10%, so that sources do not all fire at once.
    static func jittered(_ duration: Duration, upward: Bool = true) -> Duration {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return .milliseconds(Int64(seconds * 1000 * Double.random(in: upward ? 0.9...1.1 : 0.9...1.0)))
    }
}
