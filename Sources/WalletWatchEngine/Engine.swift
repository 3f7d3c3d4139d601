import Foundation
import Logging
import WalletWatchCore
import WalletWatchNet
import WalletWatchStore

/// walletwatch's use cases, wired together once for a command or the daemon. The engine only
/// connects them: each use case is a small type named after what it does, given the
/// dependencies it needs, and what it returns is a read model of Core or of this module, never a
/// store type. The database, the configuration, the clock, the HTTP client and the logger are
/// all passed in: the engine creates none of them.
public struct Engine: Sendable {
    /// What the engine was made from, for making another over the same database and client.
    public let storage: Storage
    public let config: AppConfig
    public let clock: WallClock
    public let http: any HTTPClient
    public let logger: Logger

    /// The currencies the database knows: ISO money, built-in coins and tokens, the user's units.
    public let currencies: Currencies
    /// Settings kept in the database: display currency and time zone, the undo grace, the budget.
    public let preferences: Preferences
    /// Exchange rates: stored, refreshed from the provider, imported.
    public let rates: RateBook
    /// Daily price history from the provider (`rates backfill`, and the daemon each day).
    public let backfill: RateBackfill
    /// One pass over the sources into the store.
    public let ingestor: Ingestor
    /// Balances from the store while fresh, else from the sources' balance endpoints.
    public let balances: BalanceCache
    /// Assets and transactions: manual entries, listings.
    public let ledger: Ledger
    /// Tags and their BIP-329 import and export.
    public let tags: TagBook
    /// Goals, their lifecycle and how far each is funded.
    public let goals: GoalBook
    /// Assets' targets for goals and their history.
    public let allocations: Allocations
    /// HD wallets' addresses: listed, probed past the gap limit, reserved for goals.
    public let walletAddresses: WalletAddresses
    /// The month: plan, start, complete, undo, status, history.
    public let month: MonthService
    /// "Add to close month" (SPEC.md section 12).
    public let closeGoal: CloseGoal
    /// Regular saving plans (SPEC.md section 19).
    public let savingPlans: SavingPlans
    /// Portfolio figures and exports.
    public let reports: Reports
    /// What the live views show, and when it changed.
    public let liveView: LiveView
    /// How the sources' passes and the HTTP client have been doing (for /metrics).
    public let activity: Activity
    /// Secret files readable by others, each warned about once by every copy of this engine.
    public let secretFiles: SecretFileWarnings
    /// Consistent copies of the database, and the folder that keeps the newest of them.
    public let backups: Backups
    /// The daemon's backups on `[backup] every_hours`.
    public let backupSchedule: BackupSchedule
    /// `walletwatch check`: SQLite's checks and walletwatch's invariants.
    public let checkup: Checkup
    /// `walletwatch doctor`: the config, the database, each source, the rate provider, file modes.
    public let doctor: Doctor
    /// Webhook notifications: the config's targets, the outbox's delivery, `notify test` and `log`.
    public let notifier: Notifier
    /// `source add`, `list` and `remove`: the config's sources, changed in one command.
    public let sourceSetup: SourceSetup
    /// The sources' clients and the daemon's Electrum sessions.
    let clients: SourceClients

    /// - parameter warn: where a warning goes that is no log line (a token file others can
    ///   read): the command line prints `warning: ...`; by default it is logged.
    /// - parameter webhookHTTP: the client webhooks are sent with (by default `http`): one of
    ///   their own keeps slow targets off the sources' transfer threads.
    /// - parameter deliveryTiming: the outbox's backoff and timeouts (tests shorten them).
    public init(storage: Storage, config: AppConfig, clock: WallClock, http: any HTTPClient, logger: Logger,
                warn: (@Sendable (String) -> Void)? = nil, webhookHTTP: (any HTTPClient)? = nil,
                deliveryTiming: DeliveryTiming = DeliveryTiming()) {
        let database = storage.database
        self.storage = storage
        self.config = config
        self.clock = clock
        self.http = http
        self.logger = logger
        secretFiles = SecretFileWarnings(warn ?? { [logger] in logger.warning("\($0)") })
        let clients = SourceClients(http: http, config: config.http, secretFiles: secretFiles)
        self.clients = clients
        currencies = Currencies(database: database, clock: clock)
        preferences = Preferences(database: database, config: config)
        rates = RateBook(database: database, config: config, clock: clock, http: http, preferences: preferences, logger: logger)
        backfill = RateBackfill(database: database, config: config, clock: clock, http: http, preferences: preferences, logger: logger)
        let valuer = TransactionValuer(database: database, preferences: preferences)
        ingestor = Ingestor(database: database, config: config, clock: clock, clients: clients, logger: logger)
        balances = BalanceCache(database: database, config: config, clock: clock, clients: clients)
        ledger = Ledger(database: database, clock: clock, valuer: valuer)
        tags = TagBook(database: database, clock: clock)
        goals = GoalBook(database: database, clock: clock, rates: rates)
        allocations = Allocations(database: database, clock: clock)
        walletAddresses = WalletAddresses(database: database, config: config, clock: clock, clients: clients)
        month = MonthService(database: database, config: config, clock: clock, preferences: preferences, rates: rates, goals: goals,
                             ingestor: ingestor)
        closeGoal = CloseGoal(database: database, clock: clock, month: month, rates: rates)
        savingPlans = SavingPlans(database: database, clock: clock)
        reports = Reports(database: database, clock: clock, preferences: preferences, rates: rates, goals: goals)
        liveView = LiveView(database: database, config: config, clock: clock, preferences: preferences, month: month, reports: reports,
                            savingPlans: savingPlans, valuer: valuer, logger: logger)
        activity = Activity(database: database, http: http)
        backups = Backups(database: database, config: config, clock: clock)
        backupSchedule = BackupSchedule(backups: backups, clock: clock, logger: logger, everyHours: config.backup.everyHours)
        checkup = Checkup(database: database)
        doctor = Doctor(database: database, config: config, clock: clock, http: http, rates: rates, backups: backups)
        notifier = Notifier(database: database, config: config, clock: clock, http: webhookHTTP ?? http, secretFiles: secretFiles,
                            logger: logger, timing: deliveryTiming)
        sourceSetup = SourceSetup(database: database, config: config, clock: clock, clients: clients, doctor: doctor, logger: logger)
    }
}
