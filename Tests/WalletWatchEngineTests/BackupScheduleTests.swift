import Foundation
import Logging
import Synchronization
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchStore

/// The daemon's backup schedule, driven by a clock the test moves: each pause of the schedule
/// moves the clock on by what it asked to wait, so days pass in milliseconds and every backup
/// is a real copy of a real database file.
@Suite("Backups: names, the schedule and the pruning")
struct BackupScheduleTests {
    final class MovingClock: Sendable {
        private let instant: Mutex<Instant>
        private let pauses = Mutex<[Duration]>([])
        init(_ start: Instant) { instant = Mutex(start) }
        var now: Instant { instant.withLock { $0 } }
        var wallClock: WallClock { WallClock { [self] in now } }
        /// Moves on by `duration` (what the schedule would have slept).
        func pause(_ duration: Duration) {
            pauses.withLock { $0.append(duration) }
            instant.withLock { $0 = $0.adding(milliseconds: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000) }
        }
        var pausesTaken: [Duration] { pauses.withLock { $0 } }
    }

    func engine(folder: TemporaryDirectory, clock: MovingClock, backup: BackupConfig) throws -> Engine {
        let database = try AppDatabase.open(path: folder.file("walletwatch.sqlite"))
        var config = AppConfig(file: nil, database: folder.file("walletwatch.sqlite"))
        config.backup = backup
        config.rates = RatesConfig(provider: .static, staticRates: [CurrencyPair(base: .btc, quote: .usd): 65000])
        let logger = Logger(label: "walletwatch-test")
        let http = CurlHTTPClient(configuration: HTTPClientConfiguration(userAgent: "walletwatch-test"), logger: logger)
        return Engine(storage: Storage(database), config: config, clock: clock.wallClock, http: http, logger: logger)
    }

    @Test("a backup's name says when it was made, in UTC, and sorts in time order; other names are not backups")
    func names() {
        let instant = Instant.at("2026-11-21T09:05:03.250Z")
        #expect(Backups.fileName(at: instant) == "walletwatch-20261121T090503.250Z.sqlite")
        #expect(Backups.instant(ofFileName: Backups.fileName(at: instant)) == instant)
        let later = Instant.at("2026-11-21T10:00:00Z")
        #expect(Backups.fileName(at: instant) < Backups.fileName(at: later))
        for name in ["walletwatch.sqlite", "walletwatch-20261121T090503Z.sqlite", "notes.txt", "walletwatch-2026-11-21T09:05:03.250Z.sqlite",
                     "walletwatch-20261121T090503.250Z.sqlite.partial", "walletwatch-20261341T090503.250Z.sqlite"] {
            #expect(Backups.instant(ofFileName: name) == nil, "\(name)")
        }
    }

    @Test("every 24 h by the wall clock for five days: a backup at once, then one a day; the folder keeps the newest 3")
    func schedule() async throws {
        let folder = TemporaryDirectory("walletwatch-schedule")
        let start = Instant.at("2026-11-21T12:00:00Z")
        let clock = MovingClock(start)
        let engine = try engine(folder: folder, clock: clock, backup: BackupConfig(everyHours: 24, keep: 3))
        _ = try engine.ledger.addManualAsset(name: "Cash", currency: .usd)
        let backupsFolder = folder.file("backups")
        // Another file in the folder is no backup: never counted, never removed.
        try FileManager.default.createDirectory(atPath: backupsFolder, withIntermediateDirectories: true)
        folder.write("backups/notes.txt", "mine")
        let end = start.adding(seconds: 5 * 86_400 - 60)
        await engine.backupSchedule.run(stopping: { clock.now >= end }, pause: { clock.pause($0) })

        let names = try FileManager.default.contentsOfDirectory(atPath: backupsFolder).sorted()
        // Made at start, +1 d, +2 d, +3 d, +4 d; the newest three stay.
        #expect(names == ["notes.txt"] + (2...4).map { Backups.fileName(at: start.adding(seconds: Int64($0) * 86_400)) })
        // It never waits longer than an hour at a time, and it never spins.
        #expect(clock.pausesTaken.allSatisfy { $0 <= BackupSchedule.longestWait && $0 > .zero })
        #expect(clock.pausesTaken.count < 5 * 24 + 5)
        for name in names where name != "notes.txt" {
            let path = (backupsFolder as NSString).appendingPathComponent(name)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let copy = try AppDatabase.open(path: path)
            #expect(try copy.assetOverviews().map(\.asset.name) == ["Cash"])
        }
    }

    @Test("a restarted daemon backs up only when the newest backup is every_hours old; every_hours = 0 makes none")
    func restart() async throws {
        let folder = TemporaryDirectory("walletwatch-schedule-restart")
        let clock = MovingClock(.at("2026-11-21T12:00:00Z"))
        let engine = try engine(folder: folder, clock: clock, backup: BackupConfig(everyHours: 6, keep: 10))
        let made = try await engine.backups.make()
        #expect(made.path == folder.file("backups/walletwatch-20261121T120000.000Z.sqlite"))
        #expect(engine.backupSchedule.nextDue() == .at("2026-11-21T18:00:00Z"))
        // Started again 5 h later: nothing until the newest is 6 h old, then one.
        clock.pause(.seconds(5 * 3600))
        let earlierPauses = clock.pausesTaken.count
        await engine.backupSchedule.run(stopping: { clock.now >= .at("2026-11-21T18:30:00Z") }, pause: { clock.pause($0) })
        #expect(engine.backups.list().map(\.madeAt) == [.at("2026-11-21T12:00:00Z"), .at("2026-11-21T18:00:00Z")])
        #expect(clock.pausesTaken.dropFirst(earlierPauses).first == .seconds(3600), "it waits the hour left, then backs up")

        let never = try self.engine(folder: TemporaryDirectory("walletwatch-schedule-never"), clock: clock, backup: BackupConfig(everyHours: 0))
        let before = clock.pausesTaken.count
        await never.backupSchedule.run(stopping: { false }, pause: { clock.pause($0) })
        #expect(never.backups.list().isEmpty)
        #expect(clock.pausesTaken.count == before)
    }
}
