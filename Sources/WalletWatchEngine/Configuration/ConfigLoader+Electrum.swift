import Foundation
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet

extension ConfigLoader {
    /// An electrum source's `url` in Electrum's notation, `tcp://HOST:PORT` or
    /// `ssl://HOST:PORT`, with the default port of its network when it has none (Electrum's:
    /// 50001/50002 on bitcoin, 60001/60002 on testnet); signet and regtest have no agreed port.
    static func electrumURL(_ text: String, network: Network, _ reader: TableReader) throws -> String {
        let accepted = "write the server as ssl://HOST:PORT (TLS, Umbrel and Start9 use 50002) or tcp://HOST:PORT (50001)"
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["tcp", "ssl"].contains(scheme),
              let host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else {
            throw reader.error("url", "'\(text)' is not accepted; \(accepted)")
        }
        let port: Int
        if let given = url.port {
            guard (1...65535).contains(given) else { throw reader.error("url", "'\(text)': port \(given) is not 1 to 65535") }
            port = given
        } else {
            switch (network, scheme) {
            case (.bitcoin, "tcp"): port = 50001
            case (.bitcoin, _): port = 50002
            case (.testnet, "tcp"): port = 60001
            case (.testnet, _): port = 60002
            default: throw reader.error("url", "'\(text)' has no port, and \(network) servers have no usual one; write \(scheme)://\(host):PORT")
            }
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost.lowercased()):\(port)"
    }

    /// `certificate_sha256`: the SHA-256 of the server's certificate, as hex (colons allowed,
    /// as `openssl x509 -fingerprint -sha256` prints it), kept as lowercase hex. Only an
    /// ssl:// server has a certificate.
    static func certificatePin(_ reader: inout TableReader, url: String) throws -> String? {
        guard let text = try reader.string("certificate_sha256") else { return nil }
        guard url.hasPrefix("ssl://") else {
            throw reader.error("certificate_sha256", "applies to ssl:// servers only; this one is \(url)")
        }
        var hex = text.lowercased().replacingOccurrences(of: ":", with: "")
        if let equals = hex.lastIndex(of: "=") { hex = String(hex[hex.index(after: equals)...]) }
        hex = hex.trimmingCharacters(in: .whitespaces)
        guard hex.utf8.count == 64, Hex.decode(hex) != nil else {
            throw reader.error("certificate_sha256", "'\(DisplaySafety.escaped(text))' is not a SHA-256 fingerprint; give the 64 hex digits `openssl x509 -noout -fingerprint -sha256` prints (colons allowed)")
        }
        return hex
    }

    /// SPEC.md section 22: a `.onion` host reached without a proxy that resolves names itself
    /// could only leak a DNS query for it; refused when the config is read, before any
    /// connection is made. `xxx.onion.` (a trailing dot) is an onion name too, and a
    /// `socks5://` or `socks4://` proxy resolves names on this machine: neither counts as a route.
    static func refuseOnionsWithoutProxy(_ config: AppConfig) throws {
        guard let file = config.file else { return }
        let routing = config.http.routing
        func check(_ host: String, own: String?, what: String) throws {
            guard NetworkRouting.isOnion(host) else { return }
            let proxy = routing.route(own: own).proxy(for: host)
            if let proxy, NetworkRouting.resolvesNames(proxy) { return }
            let route = proxy.map { "its proxy \(URLRedaction.redact($0)) resolves names on this machine (write socks5h:// to let the proxy resolve them)" }
                ?? "no proxy leads there: set [http] proxy = \"socks5h://127.0.0.1:9050\" (Tor's SOCKS port) or the entry's own proxy"
            throw ConfigError(file: file, message: "\(what) is an onion service (\(host)) but \(route); reaching it that way would only leak its name to your DNS", kind: .refused)
        }
        for (index, source) in config.sources.enumerated() {
            try check(source.host, own: source.proxy, what: "sources[\(index + 1)] '\(source.name)'")
        }
        for (index, target) in config.notify.enumerated() {
            try check(URL(string: target.url)?.host ?? "", own: target.proxy, what: "notify[\(index + 1)] '\(target.name)'")
        }
        try check(URL(string: config.rates.url)?.host ?? "", own: nil, what: "[rates] url")
        if config.rates.provider == .mempool {
            try check(URL(string: config.rates.coingeckoURL)?.host ?? "", own: nil, what: "[rates] coingecko_url")
        }
    }
}
