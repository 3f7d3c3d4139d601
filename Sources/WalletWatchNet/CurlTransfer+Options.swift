import CCurl

extension CurlTransfer {
    /// Sets every option of this attempt on the thread's easy handle, from a clean slate.
    /// Returns an error when libcurl refuses an option (a libcurl built without a feature we rely on).
    func configure(_ handles: CurlHandles, headerList: inout UnsafeMutablePointer<curl_slist>?) -> NetError? {
        let easy = handles.easy
        // Forgets the previous request's options but keeps the connections and the share.
        curl_easy_reset(easy)
        handles.errorBuffer.clear()
        var options = OptionSetter(easy: easy)

        // The route too, on every transfer: curl_easy_reset forgets it.
        options.setConnection(url: request.url, errorBuffer: handles.errorBuffer, connectTimeout: limits.connectTimeout, route: limits.route)
        // libcurl follows no redirect: it would follow one to another host or port, which
        // SPEC.md section 24 forbids. The client follows those it may (CurlHTTPClient+Redirects).
        options.set(CURLOPT_FOLLOWLOCATION, 0)
        options.set(CURLOPT_TIMEOUT_MS, max(1, limits.timeLeft.milliseconds))
        // Refuses an announced Content-Length over the limit before any of the body is read;
        // receiveBody counts the rest.
        options.set(CURLOPT_MAXFILESIZE_LARGE, offset: curl_off_t(limits.maxResponseBytes))
        options.set(CURLOPT_SSL_VERIFYPEER, 1)
        options.set(CURLOPT_SSL_VERIFYHOST, 2)
        options.set(CURLOPT_USERAGENT, limits.userAgent)
        // libcurl hands a body over in pieces of this size (16 KiB by default): bigger pieces
        // mean fewer calls into Swift, each taking a lock and feeding a hasher or a decoder,
        // which made a 70 MB history cost twice what curl itself needs to receive it. Only a
        // wish: libcurl 7.88 refuses it while it still holds the buffer of a transfer that
        // ended in an error, and then the transfer runs with 16 KiB.
        options.wish(CURLOPT_BUFFERSIZE, 256 * 1024)

        for header in request.headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        if request.body != nil {
            // No "Expect: 100-continue" round trip (and its one-second wait on servers that ignore it).
            headerList = curl_slist_append(headerList, "Expect:")
        }
        if let headerList {
            options.set(CURLOPT_HTTPHEADER, pointer: headerList)
        }
        if let token = request.bearerToken {
            // libcurl adds "Authorization: Bearer ..." itself; it never sees a redirect to
            // another origin, since the client follows none (and libcurl none at all).
            options.set(CURLOPT_XOAUTH2_BEARER, token.value)
            options.set(CURLOPT_HTTPAUTH, ccurl_auth_bearer())
        }
        configureMethod(&options)

        let context = Unmanaged.passUnretained(self).toOpaque()
        options.set(CURLOPT_WRITEDATA, pointer: context)
        options.set(CURLOPT_HEADERDATA, pointer: context)
        options.setWriteFunction(CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        options.setWriteFunction(CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
        }

        guard let refused = options.firstFailure else { return nil }
        let message = String(cString: curl_easy_strerror(refused.code))
        return netError(.transport, "libcurl refused option \(refused.option.rawValue): \(message)")
    }

    private func configureMethod(_ options: inout OptionSetter) {
        switch (request.method, request.body) {
        case (.get, nil):
            options.set(CURLOPT_HTTPGET, 1)
        case (.delete, nil):
            options.set(CURLOPT_CUSTOMREQUEST, "DELETE")
        case (let method, let body):
            // POST, PUT and anything with a body. COPYPOSTFIELDS copies, so the bytes need not
            // outlive this call; the size must be set first for binary bodies.
            let bytes = body ?? []
            options.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: curl_off_t(bytes.count))
            if bytes.isEmpty {
                // An empty body still needs a valid pointer, or libcurl would read the body from stdin.
                "".withCString { options.set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: $0)) }
            } else {
                bytes.withUnsafeBytes { options.set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: $0.baseAddress!)) }
            }
            if method != .post {
                options.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
            }
        }
    }
}

/// Sets options and remembers the first one libcurl refused, so that configuring reads as a list.
struct OptionSetter {
    let easy: UnsafeMutableRawPointer
    private(set) var firstFailure: (option: CURLoption, code: CURLcode)?

    init(easy: UnsafeMutableRawPointer) {
        self.easy = easy
    }

    /// The options every connection walletwatch makes starts with: where libcurl writes its
    /// messages, no signals, the URL (http and https only), the connect timeout and the route.
    mutating func setConnection(url: String, errorBuffer: CurlErrorBuffer, connectTimeout: Duration, route: NetworkRoute) {
        set(CURLOPT_ERRORBUFFER, pointer: errorBuffer.pointer)
        // Several threads use libcurl; it must not use signals for its timeouts.
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_URL, url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        // libcurl reads 0 as "no timeout", so a tiny duration becomes 1 ms instead.
        set(CURLOPT_CONNECTTIMEOUT_MS, max(1, connectTimeout.milliseconds))
        route.apply(to: &self)
    }

    mutating func set(_ option: CURLoption, _ value: Int) {
        record(option, ccurl_easy_setopt_long(easy, option, value))
    }

    /// Sets an option that only tunes the transfer: a refusal is not a failure.
    func wish(_ option: CURLoption, _ value: Int) {
        _ = ccurl_easy_setopt_long(easy, option, value)
    }

    mutating func set(_ option: CURLoption, _ value: String) {
        record(option, ccurl_easy_setopt_string(easy, option, value))
    }

    mutating func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer) {
        record(option, ccurl_easy_setopt_pointer(easy, option, pointer))
    }

    mutating func set<T>(_ option: CURLoption, pointer: UnsafeMutablePointer<T>) {
        record(option, ccurl_easy_setopt_pointer(easy, option, UnsafeMutableRawPointer(pointer)))
    }

    mutating func set(_ option: CURLoption, offset: curl_off_t) {
        record(option, ccurl_easy_setopt_off_t(easy, option, offset))
    }

    mutating func setWriteFunction(_ option: CURLoption, _ function: curl_write_callback) {
        record(option, ccurl_easy_setopt_write_function(easy, option, function))
    }

    /// Sets CURLOPT_XFERINFOFUNCTION (CURLOPT_NOPROGRESS must be 0 for libcurl to call it).
    mutating func setProgressFunction(_ function: curl_xferinfo_callback) {
        record(CURLOPT_XFERINFOFUNCTION, ccurl_easy_setopt_xferinfo_function(easy, function))
    }

    private mutating func record(_ option: CURLoption, _ code: CURLcode) {
        if code != CURLE_OK && firstFailure == nil {
            firstFailure = (option, code)
        }
    }
}

extension Duration {
    /// Whole milliseconds (rounded down).
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// "20 s", "1.5 s" or "300 ms", for error messages and logs.
    var shortDescription: String {
        let milliseconds = self.milliseconds
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
