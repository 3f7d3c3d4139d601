import Logging
import WalletWatchCore

/// The daemon's log lines on stderr, with every control character of their message and metadata
/// shown as its escape (see ``DisplaySafety``): a log carries source names, error texts and
/// txids that a source chose, and a terminal following `walletwatch run` must not obey them.
/// ``Output`` does the same for everything else the command line prints.
struct EscapingLogHandler: LogHandler {
    private var inner: StreamLogHandler
    var metadataProvider: Logger.MetadataProvider?

    init(_ inner: StreamLogHandler) {
        self.inner = inner
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue.mapValues(Self.escaped) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: DisplaySafety.escaped(key)] = newValue.map(Self.escaped) }
    }

    func log(event: LogEvent) {
        var event = event
        var explicit = metadataProvider?.get() ?? [:]
        explicit.merge(event.metadata ?? [:]) { _, new in new }
        if let error = event.error {
            // What StreamLogHandler would print for it, escaped.
            explicit["error.message"] = "\(error)"
            explicit["error.type"] = "\(String(reflecting: type(of: error)))"
            event.error = nil
        }
        event.metadata = explicit.isEmpty ? nil : Self.escaped(explicit)
        event.message = "\(DisplaySafety.escaped(event.message.description))"
        inner.log(event: event)
    }

    private static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(DisplaySafety.escaped(text))
        case .stringConvertible(let convertible): .string(DisplaySafety.escaped(convertible.description))
        case .dictionary(let dictionary): .dictionary(escaped(dictionary))
        case .array(let array): .array(array.map(escaped))
        }
    }

    /// Two keys may escape alike (a control character and its spelled-out escape): the later wins.
    private static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata {
        Dictionary(metadata.map { (DisplaySafety.escaped($0.key), escaped($0.value)) }) { _, later in later }
    }
}
