#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl

/// A libcurl share handle: the DNS cache and TLS sessions, shared by every transfer thread of one
/// client, so that a second thread neither resolves the name nor does a full TLS handshake again.
///
/// Connections are not shared: libcurl does not support sharing its connection cache between
/// concurrent threads. Each thread keeps its own (see ``CurlHandles``) and the pool hands work to
/// the most recently used thread, whose connections are warm.
///
/// Unchecked Sendable: libcurl calls the lock callbacks from whichever transfer thread uses the
/// share, and those mutexes are what make that safe; the pointers never change after `init`.
final class CurlShare: @unchecked Sendable {
    /// The CURLSH pointer; used by the handles only while this object is alive.
    let handle: UnsafeMutableRawPointer
    /// One mutex per kind of shared data, as libcurl asks (it may lock two kinds at once).
    private let locks: UnsafeMutablePointer<pthread_mutex_t>
    private let lockCount = Int(CURL_LOCK_DATA_LAST.rawValue)

    init?() {
        guard let share = curl_share_init() else { return nil }
        handle = share
        locks = .allocate(capacity: lockCount)
        for index in 0..<lockCount {
            (locks + index).initialize(to: pthread_mutex_t())
            pthread_mutex_init(locks + index, nil)
        }
        ccurl_share_setopt_pointer(share, CURLSHOPT_USERDATA, UnsafeMutableRawPointer(locks))
        ccurl_share_setopt_lock_function(share) { _, data, _, userdata in
            guard let locks = userdata?.assumingMemoryBound(to: pthread_mutex_t.self) else { return }
            pthread_mutex_lock(locks + Int(data.rawValue))
        }
        ccurl_share_setopt_unlock_function(share) { _, data, userdata in
            guard let locks = userdata?.assumingMemoryBound(to: pthread_mutex_t.self) else { return }
            pthread_mutex_unlock(locks + Int(data.rawValue))
        }
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
    }

    deinit {
        // Every easy handle holds a strong reference to this object, so none is left using it.
        curl_share_cleanup(handle)
        for index in 0..<lockCount {
            pthread_mutex_destroy(locks + index)
        }
        locks.deinitialize(count: lockCount)
        locks.deallocate()
    }
}
