/// How a ``CurlStream`` connects and keeps its connection.
public struct StreamConfiguration: Sendable {
    /// Time allowed to establish the connection: TCP, the proxy's handshake and TLS together.
    public var connectTimeout: Duration
    /// Directly or through a proxy.
    public var route: NetworkRoute
    /// TCP keep-alive probes after this much silence (and then at this interval), so that a
    /// connection that died without a word is noticed; nil turns them off. With a proxy they
    /// only cover the hop to the proxy.
    public var keepAliveInterval: Duration?

    /// Defaults: connect within 10 s, directly, keep-alive probes after 60 s of silence.
    public init(connectTimeout: Duration = .seconds(10), route: NetworkRoute = .direct, keepAliveInterval: Duration? = .seconds(60)) {
        self.connectTimeout = connectTimeout
        self.route = route
        self.keepAliveInterval = keepAliveInterval
    }
}
