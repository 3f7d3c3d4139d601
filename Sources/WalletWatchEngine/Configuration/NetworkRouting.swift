import Foundation
import WalletWatchNet

/// How each outgoing connection leaves the machine (SPEC.md section 22): through `[http] proxy`
/// unless `[http] no_proxy` names its host, or through a source's or webhook's own `proxy`
/// (`""`: directly). Environment proxies (`http_proxy`, `ALL_PROXY`) are never used: a route
/// comes from the config or not at all, so nothing leaves around the proxy by surprise.
public struct NetworkRouting: Sendable, Equatable {
    /// `[http] proxy`: a libcurl proxy URL such as `socks5h://127.0.0.1:9050`; nil for none.
    public var proxy: String?
    /// `[http] no_proxy`: hosts reached directly, comma-separated (libcurl's NOPROXY list).
    public var noProxy: String

    /// The hosts reached directly unless `no_proxy` says otherwise: this machine's.
    public static let defaultNoProxy = "localhost,127.0.0.1,::1"

    /// Routing by `proxy` with the `noProxy` exceptions.
    public init(proxy: String? = nil, noProxy: String = NetworkRouting.defaultNoProxy) {
        self.proxy = proxy
        self.noProxy = noProxy
    }

    /// The route of a connection whose own setting is `own` (nil: the config's `[http] proxy`
    /// with its `no_proxy`; `""`: directly; else that proxy, for every host).
    public func route(own: String?) -> NetworkRoute {
        switch own {
        case .some(""): .direct
        case .some(let url): .proxy(url: url, exceptions: "")
        case .none: proxy.map { .proxy(url: $0, exceptions: noProxy) } ?? .direct
        }
    }

    /// Whether `host` is a Tor onion service, reachable only through Tor. Trailing dots are
    /// dropped first: `xxx.onion.` is the same name written as fully qualified, and would
    /// otherwise slip past the check and be resolved locally.
    public static func isOnion(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        while name.hasSuffix(".") { name = name.dropLast() }
        return name.hasSuffix(".onion")
    }

    /// Whether the proxy at `url` resolves host names itself, so that a name never reaches this
    /// machine's DNS: `socks5h` and `socks4a` send the name to the proxy, an HTTP proxy gets it
    /// in its CONNECT; `socks5` and `socks4` resolve it here first (libcurl's meaning).
    public static func resolvesNames(_ url: String) -> Bool {
        // libcurl reads a proxy without a scheme as an HTTP proxy.
        guard let colon = url.range(of: "://") else { return true }
        return ["socks5h", "socks4a", "http", "https"].contains(url[..<colon.lowerBound].lowercased())
    }

    /// A proxy URL the config accepts: libcurl's SOCKS and HTTP proxies, with a host.
    static func isProxyURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        return ["socks5h", "socks5", "socks4a", "socks4", "http", "https"].contains(scheme)
    }
}

extension NetworkRoute {
    /// "through socks5h://127.0.0.1:9050" or "direct" for a connection to `host`, for messages
    /// (a proxy's password left out).
    public func summary(for host: String) -> String {
        proxy(for: host).map { "through \(URLRedaction.redact($0))" } ?? "direct"
    }
}
