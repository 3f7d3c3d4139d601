import Hummingbird

/// Finds the wallet that `/barkd/:wallet` names, or answers barkd's 404 when there is none.
struct BarkdWalletMiddleware: RouterMiddleware {
    let state: SimulatorState

    func handle(
        _ request: Request, context: SimRequestContext, next: (Request, SimRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let name = context.parameters.get("wallet"), let wallet = await state.wallet(name) else {
            return .barkdError(.notFound, "Route not found", resources: [request.uri.path])
        }
        var context = context
        context.wallet = wallet
        return try await next(request, context)
    }
}
