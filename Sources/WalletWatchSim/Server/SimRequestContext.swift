import Hummingbird

/// The request context of the simulator's routes: what the middlewares learnt about a request
/// before its route answers it.
struct SimRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The fault drawn for this request by ``RequestLogMiddleware``; nil for none.
    var fault: FaultKind?
    /// The barkd wallet the path names, found by ``BarkdWalletMiddleware``.
    var wallet: WalletState?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }

    /// Control bodies up to this size are read (a scenario-sized list of movements fits).
    var maxUploadSize: Int { 64 * 1024 * 1024 }

    /// `value` as a 200 answer written by ``WireEncoder``, with this request's body-editing
    /// fault made on the way.
    func json(_ value: some Encodable, contentType: String = "application/json") throws -> Response {
        .json(try WireEncoder.encode(value, edit: fault), contentType: contentType)
    }

    /// Text that is not JSON as a 200 answer; the missing-field fault leaves nothing of it.
    func text(_ text: String) -> Response {
        Response.text(fault == .missingField ? "" : text)
    }
}
