import Crypto
import Foundation
import Hummingbird

/// Requires the token: `Authorization: Bearer <token>` on every route, or, for the page and
/// what its script loads (`/`, `/fragment`, `/events`: a browser cannot send headers on
/// EventSource), the session cookie that a visit to `/?token=<token>` sets.
///
/// The cookie is not the token: it is an HMAC-SHA256 of a fixed label and the token, keyed with
/// a random key drawn when the server starts and kept in memory only. Whoever reads it from the
/// browser's cookie store gets neither the token nor the API, and it stops working when
/// `serve` restarts (open `/?token=...` again then). A restart costs one visit with the token;
/// a key stored on disk to outlive it would be one more secret file to guard, for no safety.
struct TokenAuthentication<Context: RequestContext>: RouterMiddleware {
    let token: String
    /// The cookie's value for this run of the server.
    let session: String
    static var cookieName: String { "walletwatch_session" }
    /// The routes the cookie opens: the page, its fragment and its event stream.
    static var pagePaths: Set<String> { ["/", "/fragment", "/events"] }

    /// - parameter key: the HMAC key; a fresh random one unless a test passes its own.
    init(token: String, key: SymmetricKey = SymmetricKey(size: .bits256)) {
        self.token = token
        let mac = HMAC<SHA256>.authenticationCode(for: Data("walletwatch web session v1\u{0}\(token)".utf8), using: key)
        self.session = mac.map { String(format: "%02x", $0) }.joined()
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let presented = request.headers[.authorization], presented.hasPrefix("Bearer "),
           Self.constantTimeEquals(String(presented.dropFirst("Bearer ".count)), token) {
            return try await next(request, context)
        }
        let page = Self.pagePaths.contains(request.uri.path)
        if page, let cookie = request.cookies[Self.cookieName], Self.constantTimeEquals(cookie.value, session) {
            return try await next(request, context)
        }
        if request.uri.path == "/", let query = request.uri.queryParameters.get("token"), Self.constantTimeEquals(query, token) {
            // Remember the visit in a cookie and drop the token from the address bar (and the
            // history). No `Secure`: the view is served over plain http.
            var headers = HTTPFields()
            headers[.location] = "/"
            headers[.setCookie] = "\(Self.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict"
            headers[.cacheControl] = "no-store"
            return Response(status: .seeOther, headers: headers)
        }
        let reason = page
            ? "a token is required: send Authorization: Bearer <token>, or open /?token=<token> once (again after walletwatch restarts)\n"
            : "a token is required: send Authorization: Bearer <token> (the browser's cookie opens the page only)\n"
        return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer", .contentType: "text/plain; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: reason)))
    }

    /// Compares without stopping at the first difference, so timing does not leak the token.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
