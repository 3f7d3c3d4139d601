import Foundation
import Hummingbird

/// Requires the token on every request: `Authorization: Bearer <token>`, or the cookie that a
/// visit to `/?token=<token>` sets (browsers cannot send headers on EventSource).
struct TokenAuthentication<Context: RequestContext>: RouterMiddleware {
    let token: String
    static var cookieName: String { "walletwatch_token" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let presented = request.headers[.authorization], presented.hasPrefix("Bearer "),
           constantTimeEquals(String(presented.dropFirst("Bearer ".count)), token) {
            return try await next(request, context)
        }
        if let cookie = request.cookies[Self.cookieName], constantTimeEquals(cookie.value, token) {
            return try await next(request, context)
        }
        if request.uri.path == "/", let query = request.uri.queryParameters.get("token"), constantTimeEquals(query, token) {
            // Remember it in a cookie and drop it from the address bar (and the history).
            var headers = HTTPFields()
            headers[.location] = "/"
            headers[.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            return Response(status: .seeOther, headers: headers)
        }
        return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer", .contentType: "text/plain; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: "a token is required: send Authorization: Bearer, or open /?token=... once\n")))
    }

    /// Compares without stopping at the first difference, so timing does not leak the token.
    private func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
