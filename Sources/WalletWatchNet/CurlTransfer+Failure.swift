import CCurl

extension CurlTransfer {
    /// Turns a libcurl result into a NetError whose detail tells a person what happened, in the
    /// terms of our configuration ("timed out after 20 s") rather than libcurl's.
    func failure(for code: CURLcode, handles: CurlHandles) -> NetError {
        let easy = handles.easy
        let message = (handles.errorBuffer.message ?? String(cString: curl_easy_strerror(code))).sentenceCase
        if let connectProblem = ConnectFailure(easy: easy, message: message, route: limits.route, host: host).describe(code) {
            return netError(connectProblem.0, withoutSecrets(connectProblem.1))
        }
        let (kind, detail): (NetError.Kind, String)
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            (kind, detail) = (.protocolNotAllowed, "only http and https are allowed")
        case CURLE_URL_MALFORMAT:
            (kind, detail) = (.invalidURL, message)
        case CURLE_OPERATION_TIMEDOUT:
            (kind, detail) = timeoutFailure(elapsed: .microseconds(getOffset(easy, CURLINFO_TOTAL_TIME_T)))
        case CURLE_GOT_NOTHING:
            (kind, detail) = (.connectionFailed, "the server closed the connection without answering")
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            (kind, detail) = (.connectionFailed, "connection lost: \(message)")
        case CURLE_PARTIAL_FILE:
            (kind, detail) = (.truncated, "connection closed before the whole body arrived")
        case CURLE_FILESIZE_EXCEEDED:
            (kind, detail) = (.tooLarge, "response larger than \(limits.maxResponseBytes) bytes")
        case CURLE_WRITE_ERROR where abortedAsTooLarge:
            (kind, detail) = (.tooLarge, "response larger than \(limits.maxResponseBytes) bytes")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE:
            (kind, detail) = (.tls, "TLS certificate verification failed: \(message)")
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CLIENTCERT:
            (kind, detail) = (.tls, "TLS handshake failed: \(message)")
        case CURLE_ABORTED_BY_CALLBACK:
            (kind, detail) = (.cancelled, "cancelled")
        default:
            (kind, detail) = (.transport, "\(message) (libcurl error \(code.rawValue))")
        }
        return netError(kind, withoutSecrets(detail))
    }

    /// libcurl reports both timeouts with one code. The connect timeout can only end the attempt
    /// early, so the elapsed time tells them apart: nearer the connect timeout means no
    /// connection could be made (worth a retry), otherwise the whole request took too long.
    private func timeoutFailure(elapsed: Duration) -> (NetError.Kind, String) {
        let connectTimeout = limits.connectTimeout
        let timeLeft = limits.timeLeft
        if connectTimeout < timeLeft && elapsed < (connectTimeout + timeLeft) / 2 {
            let proxy = limits.route.proxy(for: host).map { " through proxy \(URLRedaction.redact($0))" } ?? ""
            return (.connectionFailed, "could not connect within \(connectTimeout.shortDescription)\(proxy)")
        }
        return (.timedOut, "timed out after \(limits.timeout.shortDescription)")
    }

    /// The request's host, as libcurl's URL parser reads it (for the route's exceptions).
    private var host: String {
        URLParts(request.url)?.host ?? ""
    }

    /// The detail with the bearer token cut out, should a message from libcurl ever quote it.
    private func withoutSecrets(_ detail: String) -> String {
        request.bearerToken?.redact(detail) ?? detail
    }
}

extension String {
    /// libcurl's messages start with a capital; ours continue a sentence ("GET url: could not ...").
    /// Acronyms ("SSL certificate problem") keep their capitals.
    var sentenceCase: String {
        guard let first, first.isUppercase, dropFirst().first?.isLowercase == true else { return self }
        return first.lowercased() + dropFirst()
    }
}
