import Foundation
import Logging

/// Logging goes to stderr (stdout is reserved for data and JSON). The level comes from
/// `WALLETWATCH_LOG_LEVEL` (trace, debug, info, notice, warning, error, critical); the
/// default is `warning` for one-shot commands, and the daemon raises it to `info`.
enum LogSetup {
    static let environmentKey = "WALLETWATCH_LOG_LEVEL"

    static func bootstrap() {
        let configured = ProcessInfo.processInfo.environment[environmentKey].flatMap(Logger.Level.init(rawValue:))
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configured ?? .warning
            return handler
        }
    }

    /// The level the user asked for, if any.
    static var configuredLevel: Logger.Level? {
        ProcessInfo.processInfo.environment[environmentKey].flatMap(Logger.Level.init(rawValue:))
    }
}
