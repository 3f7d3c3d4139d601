import CCurl

extension HTTPRequest {
    /// Refuses what must not reach libcurl: a URL that is not absolute http(s), and header
    /// values or a token with a line break, which would let one header smuggle in another (a
    /// token read from a file with its trailing newline is the usual way to get one).
    func validate() throws(NetError) {
        let refuse = netError
        guard let schemeEnd = url.firstRange(of: "://") else {
            throw refuse(.invalidURL, "not an absolute http:// or https:// URL")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw refuse(.protocolNotAllowed, "scheme \"\(scheme)\" refused: only http and https are allowed")
        }
        if let problem = Self.urlProblem(url) {
            throw refuse(.invalidURL, problem)
        }
        for header in headers where header.name.isEmpty || header.name.contains(":") || header.name.hasLineBreakOrNUL || header.value.hasLineBreakOrNUL {
            throw refuse(.transport, "header \"\(header.name.filter { !$0.isNewline })\" refused: a name must be non-empty without a colon, and neither name nor value may contain a line break")
        }
        if let token = bearerToken?.value, token.isEmpty || token.hasLineBreakOrNUL {
            throw refuse(.transport, "bearer token refused: it is empty or contains a line break (trim the file it comes from)")
        }
    }

    /// A NetError about this request.
    func netError(_ kind: NetError.Kind, _ detail: String) -> NetError {
        NetError(kind: kind, method: method.rawValue, url: loggedURL ?? url, detail: detail)
    }

    /// What a request stopped by its task's cancellation throws.
    var cancellationError: NetError { netError(.cancelled, "cancelled") }

    /// What libcurl's own URL parser finds wrong with `url`, if anything.
    private static func urlProblem(_ url: String) -> String? {
        guard let parsed = curl_url() else { return nil }
        defer { curl_url_cleanup(parsed) }
        let code = curl_url_set(parsed, CURLUPART_URL, url, 0)
        guard code != CURLUE_OK else { return nil }
        return String(cString: curl_url_strerror(code)).sentenceCase
    }
}

extension String {
    var hasLineBreakOrNUL: Bool {
        contains { $0.isNewline || $0 == "\0" }
    }
}
