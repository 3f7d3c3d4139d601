import Foundation
import Logging
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation
import WalletWatchNet

/// What a command runs with: the configuration, the open database and the clock, gathered into
/// an ``Engine``. Only commands create these; the libraries are handed them.
struct CommandContext {
    let engine: Engine

    var config: AppConfig { engine.config }
    var now: Instant { engine.clock.now }

    /// Loads the config named by the global options (or found in the usual places), applies
    /// `--db`, opens the database and reads the clock.
    /// - parameter logLevel: the level unless `WALLETWATCH_LOG_LEVEL` says otherwise. The
    ///   daemon logs at `info`; a one-shot command reports through its output, its warnings
    ///   and its one `error:` line, so by default it logs only what is critical (a log line
    ///   would repeat them).
    static func load(_ options: GlobalOptions, label: String = "walletwatch", logLevel: Logger.Level = .critical,
                     readOnly: Bool = false) throws -> CommandContext {
        try open(loadConfig(options), label: label, logLevel: logLevel, readOnly: readOnly)
    }

    /// Opens the database `config` names and gathers the engine.
    /// - parameter http: the HTTP limits to use instead of `[http]`'s (the doctor asks once).
    /// - parameter readOnly: for a command that only reads and must leave the file as it is.
    static func open(_ config: AppConfig, label: String = "walletwatch", logLevel: Logger.Level = .critical,
                     http httpLimits: HTTPConfig? = nil, readOnly: Bool = false) throws -> CommandContext {
        let storage = try Storage.open(path: config.database, busyTimeoutSeconds: try busyTimeoutSeconds(config), readOnly: readOnly)
        let clock = try WallClock.fromEnvironment()
        var logger = Logger(label: label)
        logger.logLevel = LogSetup.configuredLevel ?? logLevel
        let http = CurlHTTPClient(configuration: httpConfiguration(httpLimits ?? config.http), logger: logger)
        // Webhooks on a client of their own: a slow target never holds a source's transfer
        // thread. The outbox retries on its own schedule; the timeout is the request's.
        let webhookHTTP = config.notify.isEmpty ? nil
            : CurlHTTPClient(configuration: webhookConfiguration(route: config.http.routing.route(own: nil)), logger: logger,
                             maximumConcurrentTransfers: max(1, config.notify.count))
        let engine = Engine(storage: storage, config: config, clock: clock, http: http, logger: logger, warn: { Output.warning($0) },
                            webhookHTTP: webhookHTTP, deliveryTiming: try deliveryTiming())
        // Any command may write events (an ingest, a transaction, the month): the targets the
        // config names are in the database before it does.
        // A database this command cannot write (a read-only copy) still answers reads.
        if !readOnly {
            do { try engine.notifier.registerTargets() } catch {
                Output.warning("the [[notify]] targets could not be recorded in the database: \((error as? any Classified)?.description ?? "\(error)")")
            }
        }
        return CommandContext(engine: engine)
    }

    /// The webhook client: no retries of its own, small answers, connecting within 5 s, and no
    /// redirect followed (SPEC.md section 24: a 3xx is a failed attempt the outbox retries);
    /// through `[http] proxy` unless a target has a proxy of its own.
    static func webhookConfiguration(route: NetworkRoute = .direct) -> HTTPClientConfiguration {
        HTTPClientConfiguration(connectTimeout: .seconds(5), timeout: .seconds(10), maxResponseBytes: 1 << 20, retries: 0,
                                userAgent: "walletwatch/\(WalletWatchVersion.current)", maxRedirects: 0, route: route)
    }

    /// The environment variable that sets a webhook attempt's timeout in seconds (default 10).
    static let webhookTimeoutKey = "WALLETWATCH_WEBHOOK_TIMEOUT_SECONDS"

    /// The outbox's timing: SPEC.md section 18's backoff; the attempt timeout from
    /// `WALLETWATCH_WEBHOOK_TIMEOUT_SECONDS` when set.
    static func deliveryTiming(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DeliveryTiming {
        var timing = DeliveryTiming()
        if let text = environment[webhookTimeoutKey], !text.isEmpty {
            guard let seconds = Int(text), (1...300).contains(seconds) else {
                throw UsageError("\(webhookTimeoutKey)='\(text)' is not accepted; give whole seconds from 1 to 300")
            }
            timing.attemptTimeout = .seconds(seconds)
        }
        return timing
    }

    /// The environment variable that shortens (or lengthens) how long a write waits for
    /// another process's write before it fails with "locked" (tests, and scripts that would
    /// rather fail fast than wait).
    static let busyTimeoutKey = "WALLETWATCH_BUSY_TIMEOUT_SECONDS"

    /// The store's default (every write walletwatch makes is short), unless
    /// `WALLETWATCH_BUSY_TIMEOUT_SECONDS` says otherwise.
    static func busyTimeoutSeconds(_ config: AppConfig, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int {
        guard let text = environment[busyTimeoutKey], !text.isEmpty else {
            return Storage.defaultBusyTimeoutSeconds
        }
        guard let seconds = Int(text), (0...86_400).contains(seconds) else {
            throw UsageError("\(busyTimeoutKey)='\(text)' is not accepted; give whole seconds from 0 to 86400")
        }
        return seconds
    }

    /// The limits of `[http]`, its proxy (SPEC.md section 22: every source, the rate provider;
    /// a source's own `proxy` overrides it per request), and walletwatch's User-Agent.
    static func httpConfiguration(_ http: HTTPConfig) -> HTTPClientConfiguration {
        HTTPClientConfiguration(
            connectTimeout: .seconds(min(10, http.timeoutSeconds)), timeout: .seconds(http.timeoutSeconds),
            maxResponseBytes: http.maxResponseBytes, retries: http.retries,
            userAgent: "walletwatch/\(WalletWatchVersion.current)", route: http.routing.route(own: nil))
    }

    static func loadConfig(_ options: GlobalOptions) throws -> AppConfig {
        let located = ConfigLoader.locate(explicit: options.config)
        var config: AppConfig
        if FileManager.default.fileExists(atPath: located.path) {
            config = try ConfigLoader.load(path: located.path)
        } else if located.explicit {
            throw ConfigError(file: located.path, message: "does not exist; create it with `walletwatch init --config \(located.path)`")
        } else if options.db != nil {
            config = AppConfig(file: nil, database: "")
        } else {
            throw ConfigError(
                file: located.path,
                message: "no config file found (looked for ./\(ConfigLoader.fileName) and \(located.path)); run `walletwatch init`, or pass --config or --db")
        }
        if let db = options.db {
            config.database = ConfigLoader.absolute(db, relativeTo: FileManager.default.currentDirectoryPath)
        }
        return config
    }
}
