import WalletWatchCore

/// One `[[notify]]` entry: a webhook that receives the events it subscribed to (SPEC.md
/// section 18).
public struct NotifyConfig: Sendable, Equatable {
    /// How the target is reached; only webhooks so far.
    public enum Kind: String, Sendable, Equatable {
        /// An HTTP POST of each event to `url`.
        case webhook
    }

    /// Unique among the entries; names the target in `notify log` and `notify test`.
    public var name: String
    public var kind: Kind
    /// The http(s) URL the events are POSTed to.
    public var url: String
    /// Absolute path of the file whose content (without its trailing newline) keys the
    /// HMAC-SHA256 signature; nil sends no signature.
    public var secretFile: String?
    /// The events the target receives (all of them unless the entry lists some).
    public var events: Set<NotificationEvent.Name>
    /// The target's own proxy: nil follows `[http] proxy`, `""` connects directly.
    public var proxy: String?

    /// An entry as the config writes it; by default it receives every event.
    public init(name: String, kind: Kind = .webhook, url: String, secretFile: String? = nil,
                events: Set<NotificationEvent.Name> = Set(NotificationEvent.Name.subscribable), proxy: String? = nil) {
        self.name = name
        self.kind = kind
        self.url = url
        self.secretFile = secretFile
        self.events = events
        self.proxy = proxy
    }
}
