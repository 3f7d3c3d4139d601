import Synchronization
import WalletWatchCore
import WalletWatchNet

/// One JSON-RPC call of a batch.
public struct JSONRPCCall: Sendable {
    public let method: String
    public let params: [JSONValue]

    public init(_ method: String, _ params: [JSONValue] = []) {
        self.method = method
        self.params = params
    }
}

/// Ethereum JSON-RPC 2.0 over HTTP POST: single calls and batches (a JSON array, answered by
/// an array in any order, matched back by id).
///
/// The endpoint's URL may hold a provider's key (Infura, Alchemy): it never appears in an error,
/// which names the call instead. A JSON-RPC error, a missing answer or one of the wrong shape
/// fails the call with one line naming the method.
public final class JSONRPCClient: Sendable {
    let source: String
    let url: String
    let http: any HTTPClient
    let route: NetworkRoute?
    /// The largest batch sent at once; longer lists go as several batches. Public providers cap
    /// batches (Alchemy and Infura at 1,000 calls, some at 100); 100 keeps every one happy.
    let maxBatch: Int
    /// What logs show instead of a URL that came from a secret (`url_file`, `url_env`).
    let shownURL: String?
    private let counters = Mutex<(calls: Int, requests: Int)>((0, 0))

    /// `urlIsSecret`: the URL may hold a provider's key, so no log shows it.
    public init(source: String, url: String, http: any HTTPClient, route: NetworkRoute? = nil, maxBatch: Int = 100, urlIsSecret: Bool = false) {
        self.source = source
        self.url = url
        shownURL = urlIsSecret ? "<the JSON-RPC URL of source '\(source)'>" : nil
        self.http = http
        self.route = route
        self.maxBatch = maxBatch
    }

    /// JSON-RPC calls answered so far, and HTTP requests made for them.
    public var counts: (calls: Int, requests: Int) { counters.withLock { $0 } }

    /// One call's result.
    public func call(_ method: String, _ params: [JSONValue] = []) async throws -> JSONValue {
        try await batch([JSONRPCCall(method, params)])[0]
    }

    /// The results of `calls`, in their order: one HTTP request per ``maxBatch`` calls (a single
    /// call goes as a plain object, as every node accepts).
    public func batch(_ calls: [JSONRPCCall]) async throws -> [JSONValue] {
        var results: [JSONValue] = []
        results.reserveCapacity(calls.count)
        var start = 0
        while start < calls.count {
            let end = min(calls.count, start + maxBatch)
            results += try await send(Array(calls[start..<end]))
            start = end
        }
        return results
    }

    private func send(_ calls: [JSONRPCCall]) async throws -> [JSONValue] {
        let requests = calls.enumerated().map { index, call in
            JSONValue.object(["jsonrpc": .string("2.0"), "id": .int(index + 1), "method": .string(call.method), "params": .array(call.params)])
        }
        let body = calls.count == 1 ? requests[0].compact : JSONValue.array(requests).compact
        let what = calls.count == 1 ? calls[0].method : "a batch of \(calls.count) calls (\(Set(calls.map(\.method)).sorted().joined(separator: ", ")))"
        let response: HTTPResponse
        do {
            var request = HTTPRequest(
                method: .post, url: url,
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")],
                body: Array(body.utf8), route: route)
            request.loggedURL = shownURL
            response = try await http.send(request)
        } catch let error as NetError {
            throw failure(what, error.detail, cause: .transport(error.kind))
        }
        counters.withLock { $0.requests += 1; $0.calls += calls.count }
        guard response.isSuccess else {
            var problem = "HTTP \(response.status)"
            if response.status == 401 || response.status == 403 { problem += " (access refused; check the url, url_file or url_env)" }
            if response.status == 429 { problem += " (rate limited by the provider)" }
            if let message = SourceRequester.serverMessage(response.body) { problem += ": \(message)" }
            throw failure(what, problem, cause: .status(response.status))
        }
        let answer: JSONValue
        do {
            answer = try JSONReader.read(response.body) { try $0.readValue() }
        } catch let error as JSONReadError {
            throw failure(what, "the answer is not JSON (\(error.description))")
        }
        var byID: [Int128: JSONValue] = [:]
        let replies: [JSONValue]
        switch answer {
        case .array(let elements) where calls.count > 1: replies = elements
        case .object where calls.count == 1: replies = [answer]
        case .object where answer["error"] != nil:
            // A node that refuses a whole batch answers one error object.
            replies = [answer]
        default:
            throw failure(what, calls.count == 1 ? "expected a JSON-RPC answer object" : "expected an array of answers to the batch")
        }
        for reply in replies {
            guard case .object = reply else { throw failure(what, "an answer in the batch is not an object") }
            let id: Int128?
            switch reply["id"] {
            case .int(let number)?: id = number
            case .number(let text)?: id = Int128(text)
            default: id = nil
            }
            if let error = reply["error"], error != .null {
                let method = id.flatMap { (1...calls.count).contains(Int($0)) ? calls[Int($0) - 1].method : nil } ?? what
                throw failure(method, "the node answered an error: \(Self.errorText(error))", cause: .refused)
            }
            guard let id, (1...Int128(calls.count)).contains(id) else { throw failure(what, "an answer has an id that was not asked") }
            guard byID[id] == nil else { throw failure(calls[Int(id) - 1].method, "the batch's answer holds id \(id) twice") }
            guard let result = reply["result"] else { throw failure(calls[Int(id) - 1].method, "the answer has neither result nor error") }
            byID[id] = result
        }
        return try calls.indices.map { index in
            guard let result = byID[Int128(index + 1)] else { throw failure(calls[index].method, "the batch's answer left this call out") }
            return result
        }
    }

    /// Decodes one result with `decode`, an answer of the wrong shape failing the call.
    func decoded<T>(_ method: String, _ result: JSONValue, _ decode: (EVMValue) throws -> T) throws -> T {
        do { return try decode(EVMValue(result, path: "result")) } catch let error as EVMAnswerError {
            throw failure(method, error.description)
        }
    }

    func failure(_ what: String, _ problem: String, cause: SourceError.Cause = .answer) -> SourceError {
        SourceError(source: source, request: "JSON-RPC \(what)", problem: problem, cause: cause)
    }

    /// A JSON-RPC error's code and message on one line, at most 200 characters.
    static func errorText(_ error: JSONValue) -> String {
        let message: String
        if case .string(let text)? = error["message"] { message = text } else { message = error.compact }
        var code = ""
        switch error["code"] {
        case .int(let number)?: code = " (code \(number))"
        case .number(let text)?: code = " (code \(text))"
        default: break
        }
        let shown = DisplaySafety.escaped(message.count > 200 ? String(message.prefix(200)) + "…" : message)
        return shown + code
    }
}

