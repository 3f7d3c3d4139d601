import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet

/// Opens sessions to an electrum source's server (SPEC.md sections 21 and 22): a libcurl
/// stream, TCP or TLS, directly or through a proxy, with the server's certificate pinned when
/// the config says so (checked before a single byte is sent), then `server.version`.
public struct ElectrumConnector: Sendable {
    /// The configured source, for messages.
    public let source: String
    /// Where the server is.
    public let endpoint: StreamEndpoint
    /// How the connection leaves the machine.
    public let route: NetworkRoute
    /// Limits of every session.
    public let limits: ElectrumConnection.Limits
    /// Time allowed to connect (TCP, the proxy, TLS).
    public let connectTimeout: Duration
    /// What walletwatch calls itself in `server.version`.
    public let clientName: String
    /// The network the source's wallet is on: the server must follow one of its chains.
    public let network: Network

    /// A connector to `url` (`tcp://HOST:PORT` or `ssl://HOST:PORT`, as the config checked it),
    /// pinning `certificateSHA256` when given. Nil when `url` is not such a URL.
    public init?(source: String, url: String, certificateSHA256: String?, route: NetworkRoute, limits: ElectrumConnection.Limits,
                 connectTimeout: Duration, clientName: String, network: Network) {
        guard let parts = Self.parse(url) else { return nil }
        let security: StreamEndpoint.Security = parts.tls ? .tls(pin: certificateSHA256.flatMap { CertificatePin(hex: $0) }) : .plain
        self.source = source
        endpoint = StreamEndpoint(host: parts.host, port: parts.port, security: security)
        self.route = route
        self.limits = limits
        self.connectTimeout = connectTimeout
        self.clientName = clientName
        self.network = network
    }

    /// `(tls, host, port)` of `tcp://HOST:PORT` or `ssl://HOST:PORT` (an IPv6 host in brackets).
    static func parse(_ url: String) -> (tls: Bool, host: String, port: Int)? {
        let tls: Bool
        if url.hasPrefix("ssl://") { tls = true } else if url.hasPrefix("tcp://") { tls = false } else { return nil }
        let authority = url.dropFirst(6)
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else { return nil }
        return (tls, String(authority[..<colon]), port)
    }

    /// A new session: connected, its certificate checked, the protocol negotiated and the tip
    /// subscribed. Failures are one line naming the source and server; an untrusted
    /// certificate's line gives its SHA-256 and the config line that would pin it. Only a
    /// session `following` its notifications (the daemon's) keeps them for
    /// ``ElectrumConnection/notifications``.
    public func open(following: Bool = false) async throws -> ElectrumSession {
        let stream: CurlStream
        do {
            stream = try await CurlStream.connect(to: endpoint, configuration: StreamConfiguration(connectTimeout: connectTimeout, route: route))
        } catch let error as NetError {
            throw failure(error)
        }
        let connection = ElectrumConnection(transport: CurlStreamTransport(stream), source: source, endpoint: endpoint.description, limits: limits,
                                            following: following)
        do {
            return try await ElectrumSession.open(connection, clientName: clientName, network: network)
        } catch {
            connection.close()
            throw error
        }
    }

    /// `error` as the source's one line: what happened, and what to do where walletwatch knows.
    func failure(_ error: NetError) -> SourceError {
        // Where the stream layer's text already names the proxy (it reported the failure, or
        // was the one that failed), it is not named again.
        let proxy = route.proxy(for: endpoint.host)
        let via = proxy == nil || error.detail.contains("proxy") ? "" : " (through proxy \(URLRedaction.redact(proxy!)))"
        let problem: String
        switch error.kind {
        case .tls where error.certificateSHA256 != nil:
            let pin = error.certificateSHA256!
            problem = "\(error.detail); if this is your own node's self-signed certificate, check its fingerprint (SHA-256 \(pin.colonSeparated)) against the server and pin it: certificate_sha256 = \"\(pin.hex)\""
        case .certificateMismatch:
            problem = "\(error.detail); nothing was sent. If the server's certificate was renewed, check the new fingerprint and update certificate_sha256"
        case .proxyFailed:
            problem = "\(error.detail) (is the proxy, e.g. Tor, running?)"
        default:
            problem = error.detail + via
        }
        return SourceError(source: source, request: endpoint.description, problem: problem, cause: .transport(error.kind))
    }
}

/// The libcurl stream as an Electrum connection's transport.
final class CurlStreamTransport: ElectrumTransport {
    let stream: CurlStream

    init(_ stream: CurlStream) {
        self.stream = stream
    }

    func write(_ bytes: [UInt8]) async throws {
        try await stream.write(bytes)
    }

    /// What arrived; empty once the server closed its side.
    func read(maxBytes: Int) async throws -> [UInt8] {
        do {
            return try await stream.read(maxBytes: maxBytes)
        } catch let error as NetError where error.kind == .closedByPeer {
            return []
        }
    }

    func close() {
        stream.close()
    }
}
