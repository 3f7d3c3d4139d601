/// Where a ``CurlStream`` connects: a host, a port, and plain TCP or TLS.
///
/// Its description is Electrum's notation, `tcp://HOST:PORT` or `ssl://HOST:PORT` (an IPv6
/// address in brackets), which every stream error names.
public struct StreamEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Plain TCP, or TLS with an optional pin.
    public enum Security: Sendable, Hashable {
        /// Plain TCP: nothing is encrypted or authenticated.
        case plain
        /// TLS. Without a pin the certificate is verified against the system's CAs and the host
        /// name; with one, exactly the certificate whose SHA-256 it is is accepted, whoever signed it.
        case tls(pin: CertificatePin?)
    }

    /// A host name or an IP address; an IPv6 address without brackets (`::1`).
    public let host: String
    /// The TCP port (Electrum's defaults: 50001 for TCP, 50002 for TLS).
    public let port: Int
    /// Plain TCP or TLS.
    public let security: Security

    /// An endpoint; brackets around an IPv6 address (`[::1]`) are accepted and dropped.
    public init(host: String, port: Int, security: Security) {
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.security = security
    }

    /// The host as it appears in a URL: an IPv6 address in brackets.
    var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    /// `tcp://HOST:PORT` or `ssl://HOST:PORT`.
    public var description: String {
        switch security {
        case .plain: "tcp://\(urlHost):\(port)"
        case .tls: "ssl://\(urlHost):\(port)"
        }
    }

    /// The URL libcurl connects to in connect-only mode: http for plain TCP, https for TLS.
    var curlURL: String {
        switch security {
        case .plain: "http://\(urlHost):\(port)"
        case .tls: "https://\(urlHost):\(port)"
        }
    }

    /// The pin, when the endpoint has one.
    var pin: CertificatePin? {
        if case .tls(let pin) = security { return pin }
        return nil
    }

    var isTLS: Bool {
        if case .tls = security { return true }
        return false
    }
}
