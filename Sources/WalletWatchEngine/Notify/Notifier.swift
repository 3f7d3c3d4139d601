import Foundation
import Logging
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// Notifications (SPEC.md section 18): keeps the database's subscriptions in step with the
/// config's `[[notify]]` entries, delivers the outbox to each target in the events' order, and
/// answers `notify test` and `notify log`.
///
/// Delivery never happens inside a transaction: the next delivery is read, sent (one attempt,
/// with its own short timeout, on an HTTP client of its own), and its outcome written. An
/// acknowledged delivery is marked at once, so a restart resends only what was not.
public struct Notifier: Sendable {
    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let sender: WebhookSender
    let secretFiles: SecretFileWarnings
    let logger: Logger
    /// Backoff, timeouts and the poll interval.
    public let timing: DeliveryTiming

    init(database: AppDatabase, config: AppConfig, clock: WallClock, http: any HTTPClient, secretFiles: SecretFileWarnings,
         logger: Logger, timing: DeliveryTiming) {
        self.database = database
        self.config = config
        self.clock = clock
        self.sender = WebhookSender(http: http, timeout: timing.attemptTimeout)
        self.secretFiles = secretFiles
        self.logger = logger
        self.timing = timing
    }

    /// Writes the config's targets and their events to the database, so that any write of any
    /// command fans its events out to them (only when they changed). A config-less run (`--db`
    /// only) leaves them as they are.
    public func registerTargets() throws {
        guard config.file != nil else { return }
        try database.setNotifyTargets(Dictionary(uniqueKeysWithValues: config.notify.map { ($0.name, $0.events) }))
    }

    /// The configured target called `name`, or a refusal naming the configured ones.
    func target(named name: String) throws -> NotifyConfig {
        guard let target = config.notify.first(where: { $0.name == name }) else {
            let known = config.notify.map(\.name).joined(separator: ", ")
            throw Refusal("no [[notify]] entry named '\(DisplaySafety.escaped(name))' in the config\(known.isEmpty ? " (none are configured)" : "; configured: \(known)")")
        }
        return target
    }

    /// The signing key of `target`, read from its `secret_file` on every use (a changed file
    /// applies at once); nil without one. Warns once when others may read the file.
    func secret(of target: NotifyConfig) throws -> WebhookSecret? {
        guard let path = target.secretFile else { return nil }
        secretFiles.check(path, what: "notify '\(target.name)' secret_file")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SecretError(message: "notify '\(target.name)': cannot read secret_file \(path)")
        }
        let secret = WebhookSecret(fileContent: Array(data))
        guard !secret.bytes.isEmpty else { throw SecretError(message: "notify '\(target.name)': secret_file \(path) is empty") }
        return secret
    }

    /// Every delivery, oldest first; only the failed ones with `failedOnly` (`notify log`).
    public func log(failedOnly: Bool) throws -> [NotificationDelivery] {
        try database.notificationLog(failedOnly: failedOnly)
    }
}
