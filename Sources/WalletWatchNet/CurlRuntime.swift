import CCurl

/// libcurl's process-wide setup, which must run once before any handle is made.
enum CurlRuntime {
    // Swift runs a static initializer exactly once, thread-safely, on first use; that is the
    // guard curl_global_init needs, without a lock or a mutable global of our own.
    private static let initResult: UInt32 = curl_global_init(ccurl_global_default()).rawValue

    /// Initialises libcurl if no one has yet; false if libcurl could not be initialised.
    static func initialize() -> Bool {
        initResult == CURLE_OK.rawValue
    }
}
