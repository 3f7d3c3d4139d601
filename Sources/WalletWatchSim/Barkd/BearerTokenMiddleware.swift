import Hummingbird

/// barkd's bearer authentication: a wallet with a token answers its API only to requests
/// that carry `Authorization: Bearer <token>`.
struct BearerTokenMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: SimRequestContext, next: (Request, SimRequestContext) async throws -> Response
    ) async throws -> Response {
        if let token = context.wallet?.token {
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
                return .barkdError(.unauthorized, "missing auth token")
            }
            guard header.dropFirst("Bearer ".count) == token else { return .barkdError(.unauthorized, "invalid auth token") }
        }
        return try await next(request, context)
    }
}
