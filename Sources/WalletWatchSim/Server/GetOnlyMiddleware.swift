import Hummingbird

/// Lets GET requests through to a group's routes and answers every other method with
/// `refusal`, each API's own 405. The routes are registered for every method (see
/// ``RouterMethods/on(_:methods:use:)``) so that the refusal, not the router's 404, answers.
struct GetOnlyMiddleware: RouterMiddleware {
    let refusal: Response

    func handle(
        _ request: Request, context: SimRequestContext, next: (Request, SimRequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get else { return refusal }
        return try await next(request, context)
    }
}
