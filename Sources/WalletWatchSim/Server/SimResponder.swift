import Hummingbird

/// Dispatches every request: `/control` to the control API; everything else is recorded,
/// checked for a fault, then routed to barkd, Esplora or a price API by its first segment.
struct SimResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let state: SimulatorState
    let onRequest: (@Sendable (RequestRecord) -> Void)?

    /// Control bodies larger than this are refused (a scenario-sized list of movements fits).
    static let maxControlBody = 64 * 1024 * 1024

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let simRequest = SimRequest(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query,
            authorization: request.headers[.authorization])
        if simRequest.segments(after: "/control") != nil {
            let body = try await request.collectBody(upTo: SimResponder.maxControlBody)
            return await ControlRoutes(simulator: state)
                .respond(to: simRequest, body: Array(body.readableBytesView)).httpResponse
        }

        let fault = await state.takeFault(for: simRequest.path)
        let record = RequestRecord(
            method: simRequest.method, path: simRequest.path, query: simRequest.query, time: state.clock.now(),
            fault: fault?.logLabel)
        await state.record(record)
        onRequest?(record)

        if let fault {
            if let replacement = FaultResponses.replacement(for: fault) { return replacement.httpResponse }
            if case .slow(let seconds) = fault {
                await state.pause(for: .milliseconds(Int64(seconds * 1000)))
                try Task.checkCancellation()
            }
        }
        var response = await route(simRequest)
        if let fault, (200..<300).contains(response.status) {
            response = await FaultResponses.apply(fault, to: response)
        }
        return response.httpResponse
    }

    private func route(_ request: SimRequest) async -> SimResponse {
        if let segments = request.segments(after: "/barkd"), segments.count >= 1, !segments[0].isEmpty {
            let rest = "/" + segments.dropFirst().joined(separator: "/")
            return await BarkdRoutes(state: state).respond(to: request, wallet: segments[0], path: rest)
        }
        if let segments = request.segments(after: "/esplora") {
            return await EsploraRoutes(state: state).respond(to: request, segments: segments)
        }
        if request.path == "/coingecko/api/v3/simple/price" {
            return await PriceRoutes(state: state).coingecko(request)
        }
        if request.path == "/mempool/api/v1/prices" {
            return await PriceRoutes(state: state).mempool(request)
        }
        return .barkdError(404, "Route not found", resources: [request.path])
    }
}
