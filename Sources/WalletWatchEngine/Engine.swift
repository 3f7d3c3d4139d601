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

    public init(database: AppDatabase, config: AppConfig, clock: WallClock, http: any HTTPClient, logger: Logger) {
        self.database = database
        self.config = config
        self.clock = clock
        self.http = http
        self.logger = logger
    }

    /// The time zone tables are printed in (UTC unless configured).
    public var displayTimeZone: TimeZone {
        config.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }
}
