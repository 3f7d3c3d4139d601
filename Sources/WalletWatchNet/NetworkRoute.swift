import CCurl

/// How connections reach the network: directly, or through a proxy (SPEC.md section 22).
///
/// Routes come from the configuration only: `.direct` also turns off the proxies libcurl would
/// otherwise take from the environment (`http_proxy`, `https_proxy`, `ALL_PROXY`, `NO_PROXY`).
public enum NetworkRoute: Sendable, Hashable {
    /// Straight to the host, whatever the environment says.
    case direct
    /// Through the proxy at `url`, a libcurl proxy URL such as `socks5h://127.0.0.1:9050`
    /// (`socks5h` lets the proxy resolve names, so nothing is looked up locally), except for
    /// the hosts in `exceptions`, a libcurl NOPROXY list such as `localhost,127.0.0.1,::1`
    /// (`""`: no exception, everything goes through the proxy; `*`: every host is reached directly).
    /// An empty `url` is no proxy, as for libcurl.
    case proxy(url: String, exceptions: String)

    /// The proxy a connection to `host` goes through, or nil when it goes directly. Mirrors
    /// libcurl 7.88's NOPROXY matching (`Curl_check_noproxy`): `*` alone matches every host; a
    /// name matches itself and its subdomains (`example.com` and `.example.com` both match
    /// `www.example.com`, not `notexample.com`), case-insensitively, trailing dots ignored; an
    /// IP address matches itself or a CIDR range (`10.0.0.0/8`, `fd00::/8`).
    public func proxy(for host: String) -> String? {
        guard case .proxy(let url, let exceptions) = self, !url.isEmpty else { return nil }
        return NoProxyList(exceptions).contains(host: host) ? nil : url
    }

    /// Sets CURLOPT_PROXY and CURLOPT_NOPROXY. Both are always set: an empty proxy is the only
    /// way to keep libcurl from reading a proxy from the environment, and an empty NOPROXY
    /// keeps it from reading `NO_PROXY`.
    func apply(to options: inout OptionSetter) {
        switch self {
        case .direct:
            options.set(CURLOPT_PROXY, "")
            options.set(CURLOPT_NOPROXY, "")
        case .proxy(let url, let exceptions):
            options.set(CURLOPT_PROXY, url)
            options.set(CURLOPT_NOPROXY, exceptions)
        }
    }
}
