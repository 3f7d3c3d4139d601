import Foundation
import Logging
import WalletWatchCore
import WalletWatchNet
import WalletWatchStore

/// The use cases of walletwatch, shared by the command line and the web view. It holds the
/// database, the configuration, the clock, an HTTP client and a logger, all passed in: the
/// engine creates none of them itself.
public struct Engine: Sendable {
    public let database: AppDatabase
    public let config: AppConfig
    public let clock: WallClock
    public let http: any HTTPClient
    public let logger: Logger
    /// The executing month's last computed status, shared by every copy of this engine.
    public let progressCache: ProgressCache
    /// The live views' last portfolio report and charts, shared by every copy of this engine.
    public let portfolioCache: PortfolioCache
    /// Secret files readable by others, each warned about once, by every copy of this engine.
    public let secretFiles: SecretFileWarnings

    /// - parameter warn: where a warning goes that is no log line (a token file others can
    ///   read): the command line prints `warning: ...`; by default it is logged.
    public init(database: AppDatabase, config: AppConfig, clock: WallClock, http: any HTTPClient, logger: Logger,
                warn: (@Sendable (String) -> Void)? = nil) {
        self.database = database
        self.config = config
        self.clock = clock
        self.http = http
        self.logger = logger
        self.progressCache = ProgressCache()
        self.portfolioCache = PortfolioCache()
        self.secretFiles = SecretFileWarnings(warn ?? { [logger] in logger.warning("\($0)") })
    }

    /// The time zone tables are printed in: the `time_zone` setting, else the config's, else UTC.
    public var displayTimeZone: TimeZone {
        let name = (try? database.setting(SettingKey.timeZone.rawValue)) ?? config.timeZone
        return name.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }
}

extension Engine {
    /// Retries the HTTP client made since the process started (for /metrics).
    public var httpRetries: Int {
        (http as? CurlHTTPClient)?.statistics.retries ?? 0
    }
}
