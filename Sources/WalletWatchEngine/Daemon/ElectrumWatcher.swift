import Logging
import WalletWatchCore
import WalletWatchSources

/// The daemon's connection to an electrum source's server (SPEC.md section 21): one session
/// kept open, on which the source's passes run and every watched script stays subscribed.
///
/// A notification (a script's new status, a new tip) wakes the source's ingest; notifications
/// that arrive together (a block touching many scripts) are gathered for ``settle`` and make
/// one pass. `server.ping` every ``pingInterval`` keeps an idle session open (servers drop
/// sessions idle for 10 minutes, so do Tor circuits). A lost connection is opened again after
/// 1, 2, 4... up to 60 seconds; the pass that follows each new session subscribes every script
/// again and compares the statuses with the stored ones, so nothing that happened while the
/// connection was down is missed. A session lost within ``steadyAfter`` of opening counts as a
/// failure too, so a server that accepts and then drops its clients (a connection limit, a
/// ban, a failing Tor circuit) is not reconnected to, and fully re-subscribed, every second.
struct ElectrumWatcher: Sendable {
    let source: SourceConfig
    let clients: SourceClients
    let logger: Logger
    /// How long notifications are gathered before they wake one pass.
    var settle: Duration = .milliseconds(150)
    /// How long a session stays idle before a ping.
    var pingInterval: Duration = .seconds(120)
    /// How long a session must have lasted for its loss to start the backoff again from 1 s.
    var steadyAfter: Duration = .seconds(60)

    /// Keeps the session up until `stopping` says so or the task is cancelled; wakes the source's
    /// ingest through `wakeup`.
    func run(wakeup: Wakeup, stopping: @escaping @Sendable () -> Bool) async {
        var failures = 0
        while !stopping() {
            do {
                let session = try await clients.electrum(source).open(following: true)
                clients.sessions.set(session, for: source.name)
                logger.info("electrum session open", metadata: [
                    "source": "\(source.name)", "server": "\(session.version.software)", "protocol": "\(session.version.protocolVersion)",
                    "chain": "\(session.chain.name)", "tip": "\(session.tip.height)",
                ])
                let opened = ContinuousClock.now
                // A new session: the next pass subscribes every script and compares.
                await wakeup.fire()
                await follow(session, wakeup: wakeup)
                failures = ContinuousClock.now - opened < steadyAfter ? failures + 1 : 0
                clients.sessions.set(nil, for: source.name)
                session.connection.close()
                if let failure = session.connection.failure, !stopping() {
                    logger.warning("electrum session lost; reconnecting", metadata: ["source": "\(source.name)", "error": "\(failure.problem)"])
                }
            } catch {
                guard !stopping() else { break }
                failures += 1
                logger.warning("cannot reach the electrum server; retrying", metadata: [
                    "source": "\(source.name)", "error": "\((error as? any Classified)?.description ?? "\(error)")", "failures": "\(failures)",
                ])
            }
            guard !stopping() else { break }
            try? await Task.sleep(for: .seconds(min(60, 1 << min(failures, 6))))
        }
        clients.sessions.set(nil, for: source.name)
    }

    /// Follows `session` until its connection ends: notifications wake the ingest, pings keep it open.
    private func follow(_ session: ElectrumSession, wakeup: Wakeup) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let gathering = Gathering()
                for await notification in session.connection.notifications {
                    guard session.apply(notification) != nil else { continue }
                    // The first of a burst wakes one pass `settle` later; the rest, applied
                    // meanwhile, ride along.
                    guard await gathering.begin() else { continue }
                    Task {
                        try? await Task.sleep(for: settle)
                        await gathering.end()
                        logger.info("electrum server notified a change; ingesting now", metadata: ["source": "\(source.name)"])
                        await wakeup.fire()
                    }
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: pingInterval)
                    guard !Task.isCancelled, session.connection.failure == nil else { return }
                    do {
                        try await session.client.ping()
                    } catch {
                        // The connection has failed: the notifications end with it.
                        return
                    }
                }
            }
            // The notifications end when the connection fails or closes; the pings then stop.
            await group.next()
            group.cancelAll()
        }
    }
}

/// Whether a burst of notifications is being gathered.
private actor Gathering {
    private var open = false

    /// True for the first notification of a burst.
    func begin() -> Bool {
        guard !open else { return false }
        open = true
        return true
    }

    func end() { open = false }
}
