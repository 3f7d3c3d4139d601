import Hummingbird

/// Turns what a control request did wrong into the control API's error answer: 404 for an
/// unknown wallet, movement or transaction, 409 for one that exists, 400 for bad input.
struct ControlErrorMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: SimRequestContext, next: (Request, SimRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as SimulatorError {
            return ControlRoutes.error(error.httpStatus, error.message)
        } catch let error as DecodingError {
            return ControlRoutes.error(.badRequest, "bad request body: \(SimulatorError.describe(error))")
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            return ControlRoutes.error(.internalServerError, "\(error)")
        }
    }
}
