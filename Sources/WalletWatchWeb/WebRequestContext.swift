import Hummingbird

/// The request context of the web view: Hummingbird's basics, and the port the connection
/// arrived on (the bound port, also when the server was asked for port 0), which a request's
/// `Host` must name when it names one (see ``LoopbackHostCheck``).
public struct WebRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The local port of the connection; nil when the channel has no address (never over TCP).
    public let localPort: Int?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.localPort = source.channel.localAddress?.port
    }
}
