import Logging
import WalletWatchCore

/// The daemon's backups (`[backup] every_hours`, `keep`): a backup whenever the newest one in
/// the folder is `every_hours` old by the wall clock (at once when there is none), then the
/// folder pruned to the newest `keep`. The newest backup's name says when it was made, so a
/// daemon restarted every day still backs up once a day, and a manual `walletwatch backup`
/// into the folder counts too.
public struct BackupSchedule: Sendable {
    let backups: Backups
    let clock: WallClock
    let logger: Logger
    /// Hours between backups.
    public let everyHours: Int

    /// The longest single wait: the schedule looks at the clock and the folder again at least
    /// this often (a suspended machine, a backup removed by hand, a clock set back).
    public static let longestWait: Duration = .seconds(3600)

    init(backups: Backups, clock: WallClock, logger: Logger, everyHours: Int) {
        self.backups = backups
        self.clock = clock
        self.logger = logger
        self.everyHours = everyHours
    }

    /// When the next backup is due: `every_hours` after the newest in the folder; nil (now)
    /// when the folder has none.
    public func nextDue() -> Instant? {
        backups.list().last.map { $0.madeAt.adding(seconds: Int64(everyHours) * 3600) }
    }

    /// Makes the backups that come due until `stopping` says so. `pause` waits for the given
    /// duration or less (the daemon: a timer that shutdown cuts short; tests: a clock moved on).
    /// A backup that fails is logged and tried again after at most an hour.
    public func run(stopping: @Sendable () -> Bool, pause: @Sendable (Duration) async -> Void) async {
        guard everyHours > 0 else { return }
        while !stopping() {
            let now = clock.now
            if let due = nextDue(), due > now {
                let remaining = Duration.milliseconds(due.millisecondsSinceEpoch - now.millisecondsSinceEpoch)
                await pause(min(remaining, Self.longestWait))
                continue
            }
            do {
                let made = try await backups.make()
                logger.info("backup made", metadata: [
                    "path": "\(made.path)", "bytes": "\(made.bytes)", "integrity": "\(made.integrity)", "removed": "\(made.removed.count)",
                ])
            } catch {
                logger.error("backup failed; trying again later", metadata: [
                    "folder": "\(backups.folder)", "error": "\((error as? any Classified)?.description ?? "\(error)")",
                ])
                guard !stopping() else { break }
                await pause(min(.seconds(Int64(everyHours) * 3600), Self.longestWait))
            }
        }
    }
}
