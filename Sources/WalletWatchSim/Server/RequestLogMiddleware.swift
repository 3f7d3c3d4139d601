import Hummingbird

/// Records each request to the simulated APIs in the request log and hands the record to
/// `onRequest`. The request draws its fault here, so that the record names the fault it got;
/// ``FaultMiddleware`` then applies it.
struct RequestLogMiddleware: RouterMiddleware {
    let state: SimulatorState
    let onRequest: (@Sendable (RequestRecord) -> Void)?

    func handle(
        _ request: Request, context: SimRequestContext, next: (Request, SimRequestContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        // The control API's routes come before this middleware, but a request that matches none
        // of them still passes here on its way to the router's not-found answer.
        guard !ControlRoutes.owns(path) else { return try await next(request, context) }
        var context = context
        context.fault = await state.takeFault(for: path)
        let record = RequestRecord(
            method: request.method.rawValue, path: path, query: request.uri.query, time: state.clock.now(),
            fault: context.fault?.logLabel, inFlight: await state.beginAnswering())
        await state.record(record)
        onRequest?(record)
        do {
            let response = try await next(request, context)
            await state.endAnswering()
            return response
        } catch {
            await state.endAnswering()
            throw error
        }
    }
}
