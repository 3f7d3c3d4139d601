import CCurl

/// The scheme, host and port of an absolute URL, as libcurl's own URL parser reads them: equal
/// parts are the same origin (RFC 6454), which the redirect rule compares, and the host is what
/// a route's exceptions are matched against.
struct URLParts: Equatable {
    /// Lowercase (`https`).
    let scheme: String
    /// Lowercase, an IPv6 address without brackets.
    let host: String
    /// The port, the scheme's default when the URL names none.
    let port: Int

    /// Nil when libcurl cannot parse `url` as an absolute URL with a host.
    init?(_ url: String) {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK,
              let scheme = Self.part(handle, CURLUPART_SCHEME, flags: 0),
              let host = Self.part(handle, CURLUPART_HOST, flags: 0),
              let port = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) })
        else { return nil }
        self.scheme = scheme.lowercased()
        var bare = Substring(host.lowercased())
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        self.host = String(bare)
        self.port = port
    }

    private static func part(_ handle: OpaquePointer, _ part: CURLUPart, flags: UInt32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
