import Hummingbird

/// Ends a request with an API's own error answer (barkd's JSON, electrs' text), thrown by a
/// route's helpers.
struct ErrorResponse: HTTPResponseError {
    let response: Response

    var status: HTTPResponse.Status { response.status }

    func response(from request: Request, context: some RequestContext) -> Response { response }
}
