import CCurl

/// A connected libcurl easy handle in connect-only mode: the socket to wait on, and
/// `curl_easy_send`/`curl_easy_recv`, which never block (the socket is non-blocking, and libcurl
/// answers CURLE_AGAIN until it can go on, for TLS too).
///
/// Owned by one stream thread, the only one that ever touches the handle.
final class StreamConnection {
    /// How a call to `send` went.
    enum Sent {
        case bytes(Int)
        case wouldBlock
        case failed(NetError)
    }

    /// How a call to `receive` went.
    enum Received {
        case bytes(Int)
        case wouldBlock
        /// The peer closed its side in an orderly way (TCP FIN, or TLS close_notify).
        case peerClosed
        case failed(NetError)
    }

    let easy: UnsafeMutableRawPointer
    let socket: Int32
    let endpoint: StreamEndpoint
    /// The server certificate's SHA-256; nil for plain TCP.
    let certificate: CertificatePin?
    private let errorBuffer: CurlErrorBuffer
    private var isClosed = false

    init(easy: UnsafeMutableRawPointer, socket: Int32, endpoint: StreamEndpoint, certificate: CertificatePin?, errorBuffer: CurlErrorBuffer) {
        self.easy = easy
        self.socket = socket
        self.endpoint = endpoint
        self.certificate = certificate
        self.errorBuffer = errorBuffer
    }

    deinit {
        close()
    }

    /// Sends what it can of `bytes[offset...]`, at most `limit` bytes. After `.wouldBlock` the
    /// same call must be repeated with the same bytes (OpenSSL requires that of a TLS write).
    func send(_ bytes: [UInt8], from offset: Int, limit: Int) -> Sent {
        errorBuffer.clear()
        var sent = 0
        let code = bytes.withUnsafeBytes { buffer in
            curl_easy_send(easy, buffer.baseAddress! + offset, min(limit, buffer.count - offset), &sent)
        }
        switch code {
        case CURLE_OK: return .bytes(sent)
        case CURLE_AGAIN: return .wouldBlock
        default: return .failed(lost(code, while: "sending"))
        }
    }

    /// Receives what has arrived, at most `buffer.count` bytes.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        errorBuffer.clear()
        var received = 0
        let code = curl_easy_recv(easy, buffer.baseAddress, buffer.count, &received)
        switch code {
        case CURLE_OK: return received == 0 ? .peerClosed : .bytes(received)
        case CURLE_AGAIN: return .wouldBlock
        default: return .failed(lost(code, while: "receiving"))
        }
    }

    /// Closes the connection (a TLS one with close_notify) and frees the handle. Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        curl_easy_cleanup(easy)
    }

    private func lost(_ code: CURLcode, while doing: String) -> NetError {
        let message = (errorBuffer.message ?? String(cString: curl_easy_strerror(code))).sentenceCase
        return NetError(kind: .connectionFailed, endpoint: endpoint, detail: "connection lost while \(doing): \(message)")
    }
}
