import Foundation
import Logging

/// Logging goes to stderr (stdout is reserved for data and JSON). The level comes from
/// `WALLETWATCH_LOG_LEVEL` (trace, debug, info, notice, warning, error, critical); the
/// default is `warning` for one-shot commands and `info` for `run` and `serve`.
enum LogSetup {
    static let environmentKey = "WALLETWATCH_LOG_LEVEL"

    static func bootstrap() {
        let configured = ProcessInfo.processInfo.environment[environmentKey].flatMap(Logger.Level.init(rawValue:))
        LoggingSystem.bootstrap { label in
            // Through the checked stderr: a log line that cannot be written makes the exit code 1.
            var handler = EscapingLogHandler(StreamLogHandler(label: label, stream: StandardStreamText(stream: .error)))
            // Libraries' own loggers stay at info; each command's Logger sets its level (see CommandContext).
            handler.logLevel = configured ?? .info
            return handler
        }
    }

    /// The level the user asked for, if any.
    static var configuredLevel: Logger.Level? {
        ProcessInfo.processInfo.environment[environmentKey].flatMap(Logger.Level.init(rawValue:))
    }
}
