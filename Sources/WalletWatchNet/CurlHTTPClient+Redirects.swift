/// SPEC.md section 24: a redirect is followed only to the same scheme, host and port as the
/// request, so a bearer token (and anything else the request carries) stays with its origin.
///
/// libcurl follows nothing itself (it would follow a redirect anywhere); the client follows
/// what it may, one transfer per hop. Only a GET follows redirects: a POST or PUT gets its 3xx
/// as the response, because re-sending a body elsewhere (307, 308) or silently turning it into
/// a GET (301, 302, 303) would each surprise someone, and walletwatch's only POSTs are
/// webhooks, which follow no redirect at all.
extension CurlHTTPClient {
    /// The statuses that are redirects with a Location to follow (300 and 304 are answers).
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// What to do with a transfer's result.
    enum RedirectDecision: Equatable {
        /// The result is the answer (not a redirect, or not one to follow).
        case answer
        /// Follow the redirect to this absolute URL.
        case follow(String)
        /// A redirect that must not be followed: the request fails with this error.
        case refuse(NetError)
    }

    /// One attempt: `request`, then each redirect it may follow, all within the request's
    /// timeout. A hop's failure or final answer is the attempt's.
    func followingRedirects(_ request: HTTPRequest, limits: TransferLimits, sink: BodySink) async -> TransferResult {
        let deadline = ContinuousClock.now + limits.timeout
        var hop = request
        var followed = 0
        var connections = 0
        while true {
            var hopLimits = limits
            // The first transfer has all of it (to the millisecond libcurl counts in).
            hopLimits.timeLeft = followed == 0 ? limits.timeout : deadline - ContinuousClock.now
            if hopLimits.timeLeft <= .zero {
                let error = hop.netError(.timedOut, "timed out after \(limits.timeout.shortDescription)")
                return TransferResult(outcome: .failure(error, bodyReachedConsumer: false), newConnections: connections)
            }
            if Task.isCancelled {
                return TransferResult(outcome: .failure(hop.cancellationError, bodyReachedConsumer: false), newConnections: connections)
            }
            var result = await run(CurlTransfer(request: hop, limits: hopLimits, sink: sink))
            connections += result.newConnections
            result.newConnections = connections
            guard case .response(let head, _) = result.outcome else { return result }
            switch Self.redirectDecision(status: head.status, target: result.redirectURL, request: request,
                                         maxRedirects: limits.maxRedirects, followed: followed) {
            case .answer:
                return result
            case .refuse(let error):
                return TransferResult(outcome: .failure(error, bodyReachedConsumer: false), newConnections: connections)
            case .follow(let target):
                followed += 1
                hop.url = target
            }
        }
    }

    /// The rule, on its own: whether a response with `status` pointing at `target` (absolute)
    /// is followed, after `followed` redirects of `request`.
    static func redirectDecision(status: Int, target: String?, request: HTTPRequest, maxRedirects: Int, followed: Int) -> RedirectDecision {
        guard redirectStatuses.contains(status), let target, maxRedirects > 0, request.method == .get else { return .answer }
        let shown = URLRedaction.redact(target)
        let scheme = target.firstRange(of: "://").map { target[..<$0.lowerBound].lowercased() }
        guard scheme == "http" || scheme == "https" else {
            return .refuse(request.netError(.protocolNotAllowed, "redirect to \(shown) refused: only http and https are allowed"))
        }
        guard let origin = URLParts(request.url), let destination = URLParts(target), origin == destination else {
            return .refuse(request.netError(.redirectRefused, "redirect to \(shown) refused: only the same scheme, host and port are followed"))
        }
        guard followed < maxRedirects else {
            return .refuse(request.netError(.transport, "more than \(maxRedirects) redirects"))
        }
        return .follow(target)
    }
}
