import CCurl
import Synchronization

/// Makes a stream's connection on the stream's own thread: libcurl in connect-only mode
/// (CURLOPT_CONNECT_ONLY), which resolves, goes through the proxy and does the TLS handshake
/// with the same code, OpenSSL and system CAs as HTTP, then leaves the socket to us.
///
/// TLS is checked before a single byte is sent: with a pin, peer and host verification are off
/// and the leaf certificate's SHA-256 (from CURLINFO_CERTINFO) must be the pin; without one,
/// libcurl verifies, and when that fails a second connection with verification off reads the
/// certificate, so that the error can say which SHA-256 would pin it, and closes unused.
struct StreamConnector {
    let endpoint: StreamEndpoint
    let configuration: StreamConfiguration
    /// Set when the connect is abandoned (the task cancelled, or the stream closed): libcurl's
    /// progress callback, called about once a second while connecting, then aborts.
    let abandoned: AbandonFlag

    /// Connects, or throws a NetError naming the endpoint.
    func connect() throws(NetError) -> StreamConnection {
        let verifying = endpoint.pin == nil
        let connection: StreamConnection
        switch open(verifying: verifying) {
        case .connected(let made):
            connection = made
        case .failed(let code, let failure) where code == CURLE_PEER_FAILED_VERIFICATION && verifying:
            throw untrusted(failure, certificate: probeCertificate())
        case .failed(_, let failure):
            throw failure
        }
        guard let pin = endpoint.pin else { return connection }
        guard let certificate = connection.certificate else {
            connection.close()
            throw NetError(kind: .tls, endpoint: endpoint, detail: "could not read the server's certificate to compare it with the pinned SHA-256")
        }
        guard certificate == pin else {
            // Closed before anything was sent: the server gets nothing but the handshake.
            connection.close()
            throw NetError(kind: .certificateMismatch, endpoint: endpoint,
                           detail: "TLS certificate SHA-256 is \(certificate), not the pinned \(pin); refused before sending anything",
                           certificateSHA256: certificate)
        }
        return connection
    }

    private enum Opened {
        case connected(StreamConnection)
        case failed(CURLcode, NetError)
    }

    /// One connection attempt, verifying the certificate or not.
    private func open(verifying: Bool) -> Opened {
        guard let easy = curl_easy_init() else {
            return .failed(CURLE_FAILED_INIT, NetError(kind: .transport, endpoint: endpoint, detail: "libcurl could not make a handle"))
        }
        let errorBuffer = CurlErrorBuffer()
        var options = OptionSetter(easy: easy)
        options.setConnection(url: endpoint.curlURL, errorBuffer: errorBuffer, connectTimeout: configuration.connectTimeout, route: configuration.route)
        // Connect (TCP, proxy, TLS), then stop: no HTTP request is ever sent.
        options.set(CURLOPT_CONNECT_ONLY, 1)
        // Through an HTTP proxy, tunnel with CONNECT for tcp:// too (it would otherwise talk
        // to the proxy itself); SOCKS proxies ignore it.
        options.set(CURLOPT_HTTPPROXYTUNNEL, 1)
        if let interval = configuration.keepAliveInterval {
            let seconds = max(1, Int(interval.components.seconds))
            options.set(CURLOPT_TCP_KEEPALIVE, 1)
            options.set(CURLOPT_TCP_KEEPIDLE, seconds)
            options.set(CURLOPT_TCP_KEEPINTVL, seconds)
        }
        if endpoint.isTLS {
            options.set(CURLOPT_SSL_VERIFYPEER, verifying ? 1 : 0)
            options.set(CURLOPT_SSL_VERIFYHOST, verifying ? 2 : 0)
            options.set(CURLOPT_CERTINFO, 1)
        }
        options.set(CURLOPT_NOPROGRESS, 0)
        options.set(CURLOPT_XFERINFODATA, pointer: Unmanaged.passUnretained(abandoned).toOpaque())
        options.setProgressFunction { context, _, _, _, _ in
            guard let context else { return 0 }
            return Unmanaged<AbandonFlag>.fromOpaque(context).takeUnretainedValue().isSet ? 1 : 0
        }
        if let refused = options.firstFailure {
            curl_easy_cleanup(easy)
            let message = String(cString: curl_easy_strerror(refused.code))
            return .failed(refused.code, NetError(kind: .transport, endpoint: endpoint, detail: "libcurl refused option \(refused.option.rawValue): \(message)"))
        }

        // Blocks this (the stream's own) thread until connected, failed, timed out or abandoned.
        // libcurl holds pointers to both while it runs.
        let code = withExtendedLifetime((abandoned, errorBuffer)) { curl_easy_perform(easy) }
        guard code == CURLE_OK else {
            let failure = failure(code, easy: easy, errorBuffer: errorBuffer)
            curl_easy_cleanup(easy)
            return .failed(code, failure)
        }
        var socket: curl_socket_t = -1
        guard ccurl_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 else {
            curl_easy_cleanup(easy)
            return .failed(CURLE_FAILED_INIT, NetError(kind: .transport, endpoint: endpoint, detail: "libcurl connected but gave no socket"))
        }
        let certificate = endpoint.isTLS ? leafCertificate(easy) : nil
        return .connected(StreamConnection(easy: easy, socket: socket, endpoint: endpoint, certificate: certificate, errorBuffer: errorBuffer))
    }

    /// The SHA-256 of the server's certificate, from a connection made without verifying it
    /// and closed at once; nil when even that fails.
    private func probeCertificate() -> CertificatePin? {
        guard case .connected(let connection) = open(verifying: false) else { return nil }
        defer { connection.close() }
        return connection.certificate
    }

    /// The SHA-256 of the leaf certificate libcurl saw (CURLINFO_CERTINFO gives it first, as PEM).
    private func leafCertificate(_ easy: UnsafeMutableRawPointer) -> CertificatePin? {
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard ccurl_easy_getinfo_certinfo(easy, &info) == CURLE_OK, let info, info.pointee.num_of_certs > 0,
              let lists = info.pointee.certinfo
        else { return nil }
        var entry = lists[0]
        while let current = entry {
            let text = String(cString: current.pointee.data)
            if text.hasPrefix("Cert:") {
                return CertificatePin(certificatePEM: String(text.dropFirst("Cert:".count)))
            }
            entry = current.pointee.next
        }
        return nil
    }

    /// The error for a failed connect.
    private func failure(_ code: CURLcode, easy: UnsafeMutableRawPointer, errorBuffer: CurlErrorBuffer) -> NetError {
        let message = (errorBuffer.message ?? String(cString: curl_easy_strerror(code))).sentenceCase
        let proxy = configuration.route.proxy(for: endpoint.host).map { " through proxy \(URLRedaction.redact($0))" } ?? ""
        let (kind, detail): (NetError.Kind, String)
        if let connectProblem = ConnectFailure(easy: easy, message: message, route: configuration.route, host: endpoint.host).describe(code) {
            (kind, detail) = connectProblem
        } else {
            switch code {
            case CURLE_OPERATION_TIMEDOUT:
                (kind, detail) = (.connectionFailed, "could not connect within \(configuration.connectTimeout.shortDescription)\(proxy)")
            case CURLE_ABORTED_BY_CALLBACK:
                (kind, detail) = (.cancelled, "cancelled")
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE:
                (kind, detail) = (.tls, "TLS certificate verification failed: \(message)")
            case CURLE_SSL_CONNECT_ERROR where message.contains("wrong version number"):
                (kind, detail) = (.tls, "TLS handshake failed: the server does not speak TLS on this port (a tcp:// port?)")
            case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_SHUTDOWN_FAILED:
                (kind, detail) = (.tls, "TLS handshake failed: \(message)")
            case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
                (kind, detail) = (.connectionFailed, "connection lost while connecting: \(message)")
            default:
                (kind, detail) = (.transport, "\(message) (libcurl error \(code.rawValue))")
            }
        }
        return NetError(kind: kind, endpoint: endpoint, detail: detail)
    }

    /// A verification failure, with the certificate's SHA-256 when the probe could read it.
    private func untrusted(_ failure: NetError, certificate: CertificatePin?) -> NetError {
        var reason = failure.detail
        for prefix in ["TLS certificate verification failed: ", "SSL certificate problem: ", "SSL: "] where reason.hasPrefix(prefix) {
            reason = String(reason.dropFirst(prefix.count))
        }
        let detail = certificate.map { "TLS certificate not trusted (\(reason)); its SHA-256 is \($0)" }
            ?? "TLS certificate not trusted (\(reason)); its SHA-256 could not be read"
        return NetError(kind: .tls, endpoint: endpoint, detail: detail, certificateSHA256: certificate)
    }
}

/// A flag set from any thread and read by libcurl's progress callback on the stream's thread.
final class AbandonFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() {
        flag.store(true, ordering: .releasing)
    }

    var isSet: Bool { flag.load(ordering: .acquiring) }
}
