import Logging
import Synchronization

/// Keeps every log line (message and metadata) so tests can read what was logged (and check
/// what never may be). Each logger gets its own handler value, as swift-log expects: metadata
/// set on one copy (say, per source in concurrent ingests) never races with another.
public final class LogRecorder: Sendable {
    public struct Entry: Sendable {
        public let level: Logger.Level
        public let message: String
        public let metadata: Logger.Metadata
        /// The message and metadata together, for "appears anywhere" checks.
        public var text: String { "\(message) \(metadata)" }
    }

    private let storage = Mutex<[Entry]>([])

    public init() {}

    public var entries: [Entry] { storage.withLock { $0 } }

    /// A logger at `level` that records into this recorder.
    public func logger(label: String = "walletwatch-test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in RecordingLogHandler(recorder: self) }
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
