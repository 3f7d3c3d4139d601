import CCurl

/// The libcurl handles one transfer thread reuses for all its transfers: an easy handle, and a
/// multi handle that drives it so that a cancelled task can wake the thread at once
/// (`curl_multi_wakeup`) instead of waiting for libcurl's next progress callback. The multi
/// handle also keeps the thread's open connections between transfers.
///
/// Used by one thread at a time; made on the thread that submits the first job.
final class CurlHandles: @unchecked Sendable {
    /// The CURL pointer.
    let easy: UnsafeMutableRawPointer
    /// The CURLM pointer.
    let multi: UnsafeMutableRawPointer
    /// Where libcurl writes a readable message when a transfer fails.
    let errorBuffer = CurlErrorBuffer()
    // Held so that the share outlives the easy handle that uses it.
    private let share: CurlShare?

    init?(share: CurlShare?) {
        guard let easy = curl_easy_init() else { return nil }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            return nil
        }
        self.easy = easy
        self.multi = multi
        self.share = share
        // curl_easy_reset keeps the share, so this is set once for the handle's life.
        if let share {
            ccurl_easy_setopt_pointer(easy, CURLOPT_SHARE, share.handle)
        }
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_multi_cleanup(multi)
    }
}
