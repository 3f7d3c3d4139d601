import Foundation
import GRDB
import Logging
import Synchronization
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchSim
@testable import WalletWatchStore

/// The demo world with a webhook target pointed at a real receiver, and a clock the test moves.
final class NotifyWorld: @unchecked Sendable {
    let world: SimulatedWorld
    let receiver = WebhookReceiver()
    private let clock = MovableClock()

    init() async throws {
        world = try await SimulatedWorld()
        world.folder.write("hook.secret", "s3cret\n")
        chmod(world.folder.file("hook.secret"), 0o600)
    }

    var now: Instant { clock.now }
    func advance(seconds: Int64) { clock.instant.withLock { $0 = $0.adding(seconds: seconds) } }
    func set(_ instant: Instant) { clock.instant.withLock { $0 = instant } }

    var target: NotifyConfig {
        NotifyConfig(name: "phone", url: receiver.url, secretFile: world.folder.file("hook.secret"))
    }

    /// An engine on the world's database whose clock is the test's, with `target` configured.
    func engine(targets: [NotifyConfig]? = nil, attemptTimeout: Duration = .seconds(5), sources: [SourceConfig]? = nil) throws -> Engine {
        var config = AppConfig(file: world.folder.file("walletwatch.toml"), database: world.databasePath, sources: sources ?? world.sources(),
                               notify: targets ?? [target])
        config.rates = RatesConfig(provider: .static, currencies: [.usd], staticRates: [CurrencyPair(base: .btc, quote: .usd): 60000])
        let logger = world.logs.logger(label: "test")
        let http = CurlHTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(5), timeout: .seconds(60), retries: 1,
                                                                         initialBackoff: .milliseconds(20), userAgent: "walletwatch-test"),
                                  logger: logger)
        let engine = Engine(storage: Storage(world.database), config: config, clock: WallClock { [clock] in clock.now },
                            http: http, logger: logger, deliveryTiming: DeliveryTiming(attemptTimeout: attemptTimeout, poll: .milliseconds(50)))
        try engine.notifier.registerTargets()
        return engine
    }

    /// Sends everything due to `target`, one delivery after another, until nothing is due.
    func deliverDue(_ engine: Engine, to target: NotifyConfig? = nil) async {
        while await engine.notifier.deliverNext(to: target ?? self.target) {}
    }

    func log() throws -> [NotificationDelivery] { try world.database.notificationLog(failedOnly: false) }

    deinit {
        let receiver = self.receiver
        Task { await receiver.stop() }
    }
}

/// The test's clock: an instant it moves by hand.
final class MovableClock: Sendable {
    let instant = Mutex(Instant.at("2026-11-21T12:00:00Z"))
    var now: Instant { instant.withLock { $0 } }
}

@Suite("Notifications: the outbox delivered to a real receiver", .serialized)
struct NotifierTests {
    static func movement(_ sats: Int64, at seconds: Int64) -> BarkdMovement {
        BarkdMovement(subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: sats,
                      time: .init(createdAt: SimTime(unixSeconds: seconds)))
    }

    static func body(_ received: WebhookReceiver.Received) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(received.body)) as? [String: Any])
    }

    @Test("an ingest's new, confirmed and dropped transactions are written with it and delivered, signed, in order")
    func transactionEvents() async throws {
        let notify = try await NotifyWorld()
        try await notify.receiver.start()
        let engine = try notify.engine()
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].ok)
        #expect(try notify.log().isEmpty, "a source's first pass stores its history: nothing is announced")

        _ = try await notify.world.simulator.addMovement(Self.movement(4242, at: 1_795_261_000), to: "ark")
        let pending = try await notify.world.simulator.addMovement(
            BarkdMovement(status: .pending, subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: 99,
                          time: .init(createdAt: SimTime(unixSeconds: 1_795_261_001))), to: "ark")
        _ = try await notify.world.simulator.updateMovement(id: 12, in: "ark", MovementUpdate(status: .successful))
        notify.advance(seconds: 60)
        let report = try await engine.ingestor.ingest(sources: ["ark"])[0]
        #expect(report.ok && report.counts.new == 2 && report.counts.updated == 1, "\(report)")
        // Written by the ingest's transaction, before any delivery.
        #expect(try notify.log().map(\.event).sorted() == ["transaction.confirmed", "transaction.new", "transaction.new"])
        #expect(try notify.log().allSatisfy { $0.status == .pending && $0.attempts == 0 })
        let written = try notify.log()

        await notify.deliverDue(engine)
        let received = notify.receiver.acknowledged
        #expect(received.map { $0.header("x-walletwatch-delivery") } == written.map(\.id), "delivered once each, in the outbox's order")
        #expect(try notify.log().allSatisfy { $0.status == .delivered && $0.attempts == 1 && $0.deliveredAt == notify.now })
        let new = try #require(received.first { $0.header("x-walletwatch-event") == "transaction.new" && $0.text.contains("4242") }, "\(received.map(\.text))")
        let data = try #require(try Self.body(new)["data"] as? [String: Any])
        #expect(data["asset"] as? String == "Ark wallet" && data["amount"] as? Int == 4242 && data["currency"] as? String == "BTC")
        #expect(data["status"] as? String == "confirmed" && (data["txid"] as? String)?.hasPrefix("ark:ark:") == true && data["date"] is String)
        // Signed with the file's content without its newline: checked by OpenSSL.
        let openssl = try await ProcessRunner.run("/usr/bin/openssl", ["dgst", "-sha256", "-hmac", "s3cret", "-r"], environment: [:],
                                                  currentDirectory: "/", input: new.text)
        #expect(new.header("x-walletwatch-signature") == "sha256=" + (openssl.stdout.split(separator: " ").first.map(String.init) ?? "?"))

        // The pending movement fails: announced as failed.
        _ = try await notify.world.simulator.updateMovement(id: pending.id, in: "ark", MovementUpdate(status: .failed))
        notify.advance(seconds: 60)
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].counts.updated == 1)
        await notify.deliverDue(engine)
        let failed = try #require(notify.receiver.acknowledged.last)
        #expect(failed.header("x-walletwatch-event") == "transaction.failed")
        #expect((try Self.body(failed)["data"] as? [String: Any])?["status"] as? String == "failed")
        #expect(!(await engine.notifier.deliverNext(to: notify.target)), "nothing left to send")
        #expect(notify.receiver.received.count == written.count + 1, "no delivery twice")
    }

    /// SPEC.md section 23: the first pass is the one that creates the asset, not "a pass while
    /// the asset has no transactions". The README's `allocate "New wallet" House=100%` on a
    /// wallet watched while empty must announce its first deposit and Rule 1's allocation.
    @Test("a wallet watched while empty announces its first deposit and Rule 1's allocation of it")
    func firstDepositOfAnEmptyWallet() async throws {
        let notify = try await NotifyWorld()
        let address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
        let fresh = SourceConfig(name: "fresh", kind: .esplora, url: notify.world.simulator.esploraURL, asset: "New wallet",
                                 addresses: [address], intervalSeconds: 600)
        let engine = try notify.engine(sources: [fresh])
        #expect(try await engine.ingestor.ingest(sources: ["fresh"])[0].ok)
        #expect(try notify.log().isEmpty, "the pass that creates the asset announces nothing")
        _ = try engine.goals.add(name: "House", currency: .btc, target: Money(minorUnits: 10_000_000, currency: .btc), deadline: nil)
        _ = try engine.allocations.allocate(asset: "New wallet", assignments: [("House", "100%")])

        try await notify.world.simulator.addEsploraTransaction(EsploraTxSpec(
            txid: String(repeating: "5a", count: 32), outputs: [EsploraTxIO(address: address, value: 250_000)], blockHeight: 869_999))
        notify.advance(seconds: 600)
        let report = try await engine.ingestor.ingest(sources: ["fresh"])[0]
        #expect(report.ok && report.counts.new == 1 && report.counts.autoAllocated == 1, "\(report)")
        #expect(try notify.log().map(\.event) == ["transaction.new", "allocation.auto"])
        try await notify.receiver.start()
        await notify.deliverDue(engine)
        let bodies = try notify.receiver.acknowledged.map { try Self.body($0) }
        let new = try #require(bodies.first?["data"] as? [String: Any])
        #expect(new["asset"] as? String == "New wallet" && new["amount"] as? Int == 250_000 && new["status"] as? String == "confirmed")
        let allocation = try #require(bodies.last?["data"] as? [String: Any])
        #expect(allocation["goal"] as? String == "House" && allocation["amount"] as? Int == 250_000 && allocation["rule"] as? String == "1")
    }

    @Test("a source whose asset a balance refresh created before its first successful pass still stores its history silently")
    func assetMadeBeforeTheFirstPass() async throws {
        let notify = try await NotifyWorld()
        let engine = try notify.engine()
        // `balance --refresh` before any ingest creates the source's assets and stores balances only.
        _ = try await engine.balances.current(refresh: true)
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].counts.new > 0)
        #expect(try notify.log().isEmpty, "the source's first successful pass announces nothing, whoever made its asset")
    }

    @Test("a receiver that is down, then up: every event arrives in order, and none acknowledged comes again")
    func downThenUp() async throws {
        let notify = try await NotifyWorld()
        let engine = try notify.engine()
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].ok)
        for index in 0..<3 {
            _ = try await notify.world.simulator.addMovement(Self.movement(1000 + Int64(index), at: 1_795_261_000 + Int64(index)), to: "ark")
        }
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].counts.new == 3)
        let written = try notify.log().map(\.id)
        #expect(written.count == 3)

        // Down: one attempt, retried 30 s later; a later event waits behind it.
        #expect(await engine.notifier.deliverNext(to: notify.target))
        #expect(!(await engine.notifier.deliverNext(to: notify.target)), "the retry is not due yet, and the next event waits for it")
        let first = try #require(try notify.log().first)
        #expect(first.status == .pending && first.attempts == 1 && first.lastError != nil)
        #expect(first.nextAttemptAt == notify.now.adding(seconds: 30))
        #expect(try notify.log().dropFirst().allSatisfy { $0.attempts == 0 })

        try await notify.receiver.start()
        notify.advance(seconds: 29)
        #expect(!(await engine.notifier.deliverNext(to: notify.target)), "not before its time")
        notify.advance(seconds: 1)
        await notify.deliverDue(engine)
        #expect(notify.receiver.acknowledged.map { $0.header("x-walletwatch-delivery") } == written)
        #expect(try notify.log().map(\.status) == [.delivered, .delivered, .delivered])

        // A new engine (a restart) sends nothing again.
        let restarted = try notify.engine()
        notify.advance(seconds: 3600)
        #expect(!(await restarted.notifier.deliverNext(to: notify.target)))
        #expect(notify.receiver.received.count == 3)
    }

    @Test("500s, then 2xx: retried 30 s, 60 s, 120 s apart; after 24 h of failures the delivery is failed")
    func backoff() async throws {
        let notify = try await NotifyWorld()
        try await notify.receiver.start()
        notify.receiver.answer(500)
        let engine = try notify.engine()
        for _ in 0..<3 {
            try await notify.world.database.recordIngestFailure(source: "ark", startedAt: notify.now, finishedAt: notify.now, error: "down")
        }
        #expect(try notify.log().map(\.event) == ["source.failing"])
        var attempts: [Instant] = []
        for _ in 0..<4 {
            attempts.append(notify.now)
            #expect(await engine.notifier.deliverNext(to: notify.target))
            let next = try #require(try notify.log()[0].nextAttemptAt)
            notify.set(next)
        }
        let gaps = zip(attempts.dropFirst(), attempts).map { $0.seconds(since: $1) }
        #expect(gaps == [30, 60, 120])
        #expect(try notify.log()[0].lastError == #"HTTP 500: {"ok":true}"#)
        notify.receiver.answer(204)
        await notify.deliverDue(engine)
        #expect(try notify.log()[0].status == .delivered && notify.log()[0].attempts == 5)
        #expect(notify.receiver.received.count == 5 && notify.receiver.acknowledged.count == 1)

        // A second run of failures: retried at most 1 h apart, for 24 h after the first attempt.
        notify.receiver.answer(503)
        try await notify.world.database.recordIngestFailure(source: "cold", startedAt: notify.now, finishedAt: notify.now, error: "down")
        try await notify.world.database.recordIngestFailure(source: "cold", startedAt: notify.now, finishedAt: notify.now, error: "down")
        try await notify.world.database.recordIngestFailure(source: "cold", startedAt: notify.now, finishedAt: notify.now, error: "down")
        let start = notify.now
        var times: [Instant] = []
        while try notify.log()[1].status == .pending {
            times.append(notify.now)
            #expect(await engine.notifier.deliverNext(to: notify.target))
            if let next = try notify.log()[1].nextAttemptAt { notify.set(next) }
        }
        let waits = zip(times.dropFirst(), times).map { $0.seconds(since: $1) }
        #expect(waits.prefix(8) == [30, 60, 120, 240, 480, 960, 1920, 3600])
        #expect(waits.dropFirst(7).allSatisfy { $0 == 3600 })
        #expect(times.last!.seconds(since: start) <= 24 * 3600 && times.last!.seconds(since: start) + 3600 > 24 * 3600)
        #expect(try notify.log()[1].status == .failed && notify.log()[1].attempts == times.count)
        #expect(try notify.world.database.notificationLog(failedOnly: true).map(\.event) == ["source.failing"])
    }

    @Test("source.failing after the third failed pass in a row, once; source.recovered on the next success")
    func sourceHealth() async throws {
        let notify = try await NotifyWorld()
        let engine = try notify.engine()
        try await notify.world.simulator.addFault(.status(500), at: "/barkd/ark/api/v1/history")
        for pass in 1...4 {
            #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].ok == false)
            #expect(try notify.log().count == (pass >= 3 ? 1 : 0), "after pass \(pass)")
        }
        await notify.world.simulator.clearFaults()
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].ok)
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].ok)
        #expect(try notify.log().map(\.event) == ["source.failing", "source.recovered"])
        try await notify.receiver.start()
        await notify.deliverDue(engine)
        let bodies = try notify.receiver.acknowledged.map { try Self.body($0)["data"] as? [String: Any] }
        #expect(bodies.map { $0?["source"] as? String } == ["ark", "ark"])
        #expect((bodies[0]?["error"] as? String)?.contains("500") == true)
    }

    /// Issue 26: a failing wallet source's error text carried its addresses into the
    /// `source.failing` webhook (to a public ntfy.sh in the README's example) and the log.
    @Test("a wallet source's failure reaches the webhook, the log and ingest_runs naming its source and asset, never its addresses")
    func failureTextsNameNoAddress() async throws {
        let notify = try await NotifyWorld()
        let engine = try notify.engine()
        let address = SimulatedWorld.esploraAddresses[0]
        try await notify.world.simulator.addFault(.status(500), at: "/esplora/address/\(address)*")
        for _ in 1...3 {
            let report = try await engine.ingestor.ingest(sources: ["cold"])[0]
            #expect(!report.ok && report.error?.contains(address) == false, "\(String(describing: report.error))")
            #expect(report.error?.contains("[listed address 1 of 'Cold storage']") == true, "\(String(describing: report.error))")
        }
        try await notify.receiver.start()
        await notify.deliverDue(engine)
        let body = try #require(try notify.receiver.acknowledged.first.map(Self.body))
        let data = try #require(body["data"] as? [String: Any])
        #expect(data["source"] as? String == "cold")
        let error = try #require(data["error"] as? String)
        #expect(error.contains("/esplora/address/[listed address 1 of 'Cold storage']") && error.contains("500"), "\(error)")
        #expect(!notify.receiver.acknowledged.contains { $0.text.contains(address) })
        let logged = notify.world.logs.entries.map(\.text).joined(separator: "\n")
        #expect(!logged.contains(address) && logged.contains("[listed address 1 of 'Cold storage']"), "\(logged)")
        let stored = try await DatabaseQueue(path: notify.world.databasePath).read { db in
            try String.fetchAll(db, sql: "SELECT error FROM ingest_runs WHERE source = 'cold'")
        }
        #expect(stored.count == 3 && stored.allSatisfy { !$0.contains(address) && $0.contains("[listed address 1 of 'Cold storage']") }, "\(stored)")
    }

    @Test("Rule 1's allocation and a goal reaching its target are announced with the transaction, the goal once")
    func allocationAndGoal() async throws {
        let notify = try await NotifyWorld()
        let target = NotifyConfig(name: "phone", url: notify.receiver.url, events: [.allocationAuto, .goalReached])
        let engine = try notify.engine(targets: [target])
        _ = try engine.ledger.addManualAsset(name: "Cash", currency: .usd)
        _ = try engine.goals.add(name: "Bike", currency: .usd, target: Money(minorUnits: 50_000, currency: .usd), deadline: nil)
        _ = try engine.ledger.addTransaction(asset: "Cash", amount: "100", date: nil, note: nil)
        _ = try engine.allocations.allocate(asset: "Cash", assignments: [("Bike", "100")])
        #expect(try notify.log().isEmpty)
        _ = try engine.ledger.addTransaction(asset: "Cash", amount: "300", date: nil, note: nil)
        #expect(try notify.log().map(\.event) == ["allocation.auto"])
        _ = try engine.ledger.addTransaction(asset: "Cash", amount: "150", date: nil, note: nil)
        // 100 + 300 + 150 USD, all Rule 1's for Bike: funded 550 USD of 500.
        #expect(try notify.log().map(\.event) == ["allocation.auto", "allocation.auto", "goal.reached"])
        _ = try engine.ledger.addTransaction(asset: "Cash", amount: "10", date: nil, note: nil)
        #expect(try notify.log().filter { $0.event == "goal.reached" }.count == 1, "reached once")
        try await notify.receiver.start()
        await notify.deliverDue(engine, to: target)
        let bodies = try notify.receiver.acknowledged.map { try Self.body($0) }
        let allocation = try #require(bodies.first?["data"] as? [String: Any])
        #expect(allocation["asset"] as? String == "Cash" && allocation["goal"] as? String == "Bike" && allocation["amount"] as? Int == 30_000
                && allocation["rule"] as? String == "1" && (allocation["txid"] as? String)?.hasPrefix("manual:") == true)
        let reached = try #require(bodies.first { $0["event"] as? String == "goal.reached" }?["data"] as? [String: Any])
        #expect(reached["goal"] as? String == "Bike" && reached["funded"] as? Int == 55_000 && reached["target"] as? Int == 50_000
                && reached["currency"] as? String == "USD")
        #expect(notify.receiver.acknowledged.allSatisfy { $0.header("x-walletwatch-signature") == nil }, "no secret_file: no signature")
    }

    @Test("month complete announces each goal whose plan the month met, in the completion's write")
    func monthGoalClosed() async throws {
        let notify = try await NotifyWorld()
        let target = NotifyConfig(name: "phone", url: notify.receiver.url, events: [.monthGoalClosed])
        notify.set(.at("2026-10-01T00:00:00Z"))
        let engine = try notify.engine(targets: [target], sources: [])
        _ = try engine.ledger.addManualAsset(name: "Cash", currency: .usd)
        _ = try engine.goals.add(name: "Trip", currency: .usd, target: Money(minorUnits: 300_00, currency: .usd), deadline: Day("2026-11-30"))
        _ = try engine.goals.add(name: "Car", currency: .usd, target: Money(minorUnits: 5_000_00, currency: .usd), deadline: Day("2026-11-30"))
        _ = try engine.allocations.allocate(asset: "Cash", assignments: [("Trip", "100%")])
        notify.set(.at("2026-11-01T00:00:00Z"))
        _ = try await engine.month.start()
        notify.set(.at("2026-11-10T00:00:00Z"))
        _ = try engine.ledger.addTransaction(asset: "Cash", amount: "300", date: nil, note: nil)
        #expect(try notify.log().isEmpty, "nothing until the month completes")
        notify.set(.at("2026-11-28T00:00:00Z"))
        let (closed, _) = try await engine.month.complete()
        #expect(closed.state == .closed)
        #expect(try notify.log().map(\.event) == ["month.goal_closed"], "Trip's plan was met, Car's was not")
        try await notify.receiver.start()
        await notify.deliverDue(engine, to: target)
        let event = try #require(notify.receiver.acknowledged.first)
        let data = try #require(try Self.body(event)["data"] as? [String: Any])
        #expect(data["month"] as? String == "2026-11" && data["goal"] as? String == "Trip" && data["planned"] as? Int == 300_00
                && data["contributed"] as? Int == 300_00 && data["currency"] as? String == "USD", "\(data)")
        #expect(try Self.body(event)["at"] as? String == "2026-11-28T00:00:00.000Z")
    }

    @Test("a target that answers slowly never holds up an ingest; each target keeps its own pace")
    func slowReceiver() async throws {
        let notify = try await NotifyWorld()
        let fast = WebhookReceiver()
        try await fast.start()
        try await notify.receiver.start()
        notify.receiver.answer(200, after: .seconds(30))
        let targets = [notify.target, NotifyConfig(name: "home", url: fast.url)]
        let engine = try notify.engine(targets: targets, attemptTimeout: .seconds(20))
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].ok)
        _ = try await notify.world.simulator.addMovement(Self.movement(777, at: 1_795_261_000), to: "ark")
        #expect(try await engine.ingestor.ingest(sources: ["ark"])[0].counts.new == 1)
        let stopped = Mutex(false)
        let delivery = Task { await engine.notifier.run(stopping: { stopped.withLock { $0 } }, pause: { try? await Task.sleep(for: $0) }) }
        #expect(await eventually(within: .seconds(10)) { fast.acknowledged.count == 1 }, "the other target is not held up")
        // The slow target's request is open now; an ingest with a new movement goes through.
        _ = try await notify.world.simulator.addMovement(Self.movement(778, at: 1_795_261_100), to: "ark")
        let started = ContinuousClock.now
        let report = try await engine.ingestor.ingest(sources: ["ark"])[0]
        #expect(report.ok && report.counts.new == 1)
        #expect(ContinuousClock.now - started < .seconds(10), "the ingest waited for the slow target")
        #expect(notify.receiver.received.isEmpty, "the slow target has not answered yet")
        #expect(await eventually(within: .seconds(10)) { fast.acknowledged.count == 2 })
        stopped.withLock { $0 = true }
        delivery.cancel()
        _ = await delivery.value
        await fast.stop()
    }
}
