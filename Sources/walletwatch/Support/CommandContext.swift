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
    static func load(_ options: GlobalOptions, label: String = "walletwatch", logLevel: Logger.Level = .critical) throws -> CommandContext {
        let config = try loadConfig(options)
        let storage = try Storage.open(path: config.database)
        let clock = try WallClock.fromEnvironment()
        var logger = Logger(label: label)
        logger.logLevel = LogSetup.configuredLevel ?? logLevel
        let http = CurlHTTPClient(configuration: httpConfiguration(config.http), logger: logger)
        return CommandContext(engine: Engine(storage: storage, config: config, clock: clock, http: http, logger: logger,
                                             warn: { Output.warning($0) }))
    }

    /// The limits of `[http]`, and walletwatch's User-Agent.
    static func httpConfiguration(_ http: HTTPConfig) -> HTTPClientConfiguration {
        HTTPClientConfiguration(
            connectTimeout: .seconds(min(10, http.timeoutSeconds)), timeout: .seconds(http.timeoutSeconds),
            maxResponseBytes: http.maxResponseBytes, retries: http.retries,
            userAgent: "walletwatch/\(WalletWatchVersion.current)")
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
