#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl

/// What a failure to connect means, told in terms of the route: whether the server or the proxy
/// is to blame. Shared by HTTP transfers and streams, which both connect through libcurl.
struct ConnectFailure {
    /// libcurl's message (the error buffer, or else the code's text), in sentence case.
    let message: String
    /// CURLINFO_OS_ERRNO: why the last connect(2) failed.
    let osErrno: Int32
    /// CURLINFO_PROXY_ERROR: what the proxy answered (a CURLproxycode).
    let proxyCode: Int
    /// The proxy the connection went through, without credentials; nil when direct.
    let proxy: String?
    /// The host connected to.
    let host: String

    /// Reads what the handle knows about its last failure.
    init(easy: UnsafeMutableRawPointer, message: String, route: NetworkRoute, host: String) {
        self.message = message
        osErrno = Int32(getLong(easy, CURLINFO_OS_ERRNO))
        proxyCode = getLong(easy, CURLINFO_PROXY_ERROR)
        proxy = route.proxy(for: host).map { URLRedaction.redact($0) }
        self.host = host
    }

    /// The kind and detail for `code`, or nil when the code is not about connecting.
    func describe(_ code: CURLcode) -> (NetError.Kind, String)? {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return (.connectionFailed, "could not resolve host \(host)")
        case CURLE_COULDNT_RESOLVE_PROXY:
            return (.proxyFailed, "could not resolve the host of the proxy \(proxy ?? "")")
        case CURLE_COULDNT_CONNECT:
            // Through a proxy, libcurl's only own connection is the one to the proxy.
            if let proxy {
                return (.proxyFailed, "proxy \(proxy) unreachable: \(Self.socketProblem(osErrno) ?? message)")
            }
            return (.connectionFailed, Self.socketProblem(osErrno) ?? message)
        case CURLE_PROXY:
            return describeProxyAnswer()
        default:
            return nil
        }
    }

    /// A proxy's refusal: about the server (it refused, or is unreachable), or about the proxy.
    private func describeProxyAnswer() -> (NetError.Kind, String) {
        let proxy = proxy ?? "the proxy"
        switch UInt32(proxyCode) {
        case CURLPX_REPLY_CONNECTION_REFUSED.rawValue:
            return (.connectionFailed, "connection refused (reported by proxy \(proxy))")
        case CURLPX_REPLY_HOST_UNREACHABLE.rawValue, CURLPX_REPLY_NETWORK_UNREACHABLE.rawValue, CURLPX_REPLY_TTL_EXPIRED.rawValue:
            return (.connectionFailed, "host unreachable (reported by proxy \(proxy))")
        case CURLPX_REPLY_GENERAL_SERVER_FAILURE.rawValue:
            return (.connectionFailed, "proxy \(proxy) could not reach \(host) (it reports a general failure: an unknown host name, or the server is down)")
        case CURLPX_RESOLVE_HOST.rawValue:
            return (.connectionFailed, "could not resolve host \(host) (the proxy URL asks for local resolution: use socks5h:// to let the proxy resolve names)")
        case CURLPX_REPLY_NOT_ALLOWED.rawValue:
            return (.proxyFailed, "proxy \(proxy) refused to connect to \(host) (not allowed by its rules)")
        case CURLPX_NO_AUTH.rawValue, CURLPX_USER_REJECTED.rawValue, CURLPX_RECV_AUTH.rawValue, CURLPX_SEND_AUTH.rawValue,
             CURLPX_LONG_USER.rawValue, CURLPX_LONG_PASSWD.rawValue:
            return (.proxyFailed, "proxy \(proxy) refused the authentication")
        default:
            return (.proxyFailed, "proxy \(proxy) failed: \(message)")
        }
    }

    /// A connect(2) failure in a few words; nil for an errno without a better text than libcurl's.
    static func socketProblem(_ errno: Int32) -> String? {
        switch errno {
        case ECONNREFUSED: "connection refused"
        case EHOSTUNREACH: "host unreachable"
        case ENETUNREACH: "network unreachable"
        case ECONNRESET: "connection reset"
        case ETIMEDOUT: "timed out"
        default: nil
        }
    }
}
