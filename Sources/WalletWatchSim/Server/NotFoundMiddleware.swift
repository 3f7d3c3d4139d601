import Hummingbird

/// Answers a request that no route matched: the control API and Esplora each in their own way,
/// every other path with barkd's 404, as the one server behind all the simulated APIs does.
struct NotFoundMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: SimRequestContext, next: (Request, SimRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            if ControlRoutes.owns(path) { return ControlRoutes.notFound(request) }
            if EsploraRoutes.owns(path) { return EsploraRoutes.notFound(request) }
            return .barkdError(.notFound, "Route not found", resources: [path])
        }
    }
}
