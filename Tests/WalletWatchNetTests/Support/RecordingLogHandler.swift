import Logging
import Synchronization

/// Keeps every log line (message and metadata) so tests can read what the client logged.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
        /// The message and metadata together, for "appears anywhere" checks.
        var text: String { "\(message) \(metadata)" }
    }

    private let storage = Mutex<[Entry]>([])

    var entries: [Entry] { storage.withLock { $0 } }

    /// A logger at `level` that records into this recorder.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "walletwatch-net-test") { _ in RecordingLogHandler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ entry: Entry) {
        storage.withLock { $0.append(entry) }
    }
}

private struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.append(.init(level: event.level, message: event.message.description,
                              metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }
}
