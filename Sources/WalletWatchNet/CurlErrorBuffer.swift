import CCurl

/// The buffer libcurl writes a failure's message into (CURLOPT_ERRORBUFFER).
final class CurlErrorBuffer {
    let pointer: UnsafeMutablePointer<CChar>

    init() {
        pointer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        pointer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        pointer.deallocate()
    }

    /// Forgets the last message, so that the next one is not mistaken for an old one.
    func clear() {
        pointer[0] = 0
    }

    /// The message libcurl left, if any.
    var message: String? {
        let text = String(cString: pointer)
        return text.isEmpty ? nil : text
    }
}
