import WalletWatchCore
import WalletWatchNet

/// Sends requests for one source and turns every failure into a ``SourceError``.
struct SourceRequester: Sendable {
    let source: String
    let baseURL: String
    let token: BearerToken?
    let http: any HTTPClient
    /// The source's own route (its `proxy`); nil takes the client's.
    var route: NetworkRoute? = nil

    /// The full URL of a path under the source's base URL.
    func url(_ path: String) -> String {
        (baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL) + path
    }

    func describe(_ path: String) -> String { "GET \(URLRedaction.redact(url(path)))" }

    /// `path`'s URL as logs show it: the segment after `address/` or `scripthash/` (an
    /// explorer's route naming a wallet's address or script) left out.
    func loggedURL(_ path: String) -> String {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in segments.indices.dropLast() where segments[index] == "address" || segments[index] == "scripthash" {
            segments[index + 1] = "…"
        }
        return URLRedaction.redact(url(segments.joined(separator: "/")))
    }

    /// GETs `path` and decodes a 2xx body with `decode`.
    func get<T>(_ path: String, timeout: Duration? = nil, decode: (inout JSONReader) throws -> T) async throws -> T {
        let body = try await getBody(path, timeout: timeout)
        return try decoded(path) { try JSONReader.read(body, decode) }
    }

    /// GETs `path` and returns a 2xx body.
    func getBody(_ path: String, timeout: Duration? = nil) async throws -> [UInt8] {
        let response: HTTPResponse
        do {
            var request = HTTPRequest(url: url(path), headers: [HTTPHeader("Accept", "application/json")], bearerToken: token, timeout: timeout,
                                      route: route)
            request.loggedURL = loggedURL(path)
            response = try await http.send(request)
        } catch let error as NetError {
            throw failure(path, error.detail, cause: .transport(error.kind))
        }
        guard response.isSuccess else { throw statusFailure(path, response.head, body: response.body) }
        return response.body
    }

    /// POSTs a JSON `body` to `path` and decodes a 2xx answer with `decode` (Arkade's
    /// subscriptions are made by POST).
    func post<T>(_ path: String, json body: [UInt8], decode: (inout JSONReader) throws -> T) async throws -> T {
        let response: HTTPResponse
        do {
            response = try await http.send(HTTPRequest(
                method: .post, url: url(path), headers: [HTTPHeader("Accept", "application/json"), HTTPHeader("Content-Type", "application/json")],
                bearerToken: token, body: body, route: route))
        } catch let error as NetError {
            throw failure(path, error.detail, cause: .transport(error.kind), method: "POST")
        }
        guard response.isSuccess else { throw statusFailure(path, response.head, body: response.body).with(method: "POST") }
        return try decoded(path) { try JSONReader.read(response.body, decode) }
    }

    /// Streams the body of `path` into `consumer`. `accept` is the media type asked for (a
    /// server-sent event stream needs `text/event-stream`); `timeout` overrides the client's
    /// whole-request timeout (a stream that stays open).
    func stream(_ path: String, maxResponseBytes: Int, accept: String = "application/json", timeout: Duration? = nil,
                into consumer: any HTTPBodyConsumer) async throws {
        let head: HTTPResponseHead
        do {
            var request = HTTPRequest(url: url(path), headers: [HTTPHeader("Accept", accept)], bearerToken: token,
                                      timeout: timeout, maxResponseBytes: maxResponseBytes, route: route)
            request.loggedURL = loggedURL(path)
            head = try await http.stream(request, into: consumer)
        } catch let error as NetError {
            throw failure(path, error.detail, cause: .transport(error.kind))
        } catch let error as JSONReadError {
            throw failure(path, error.description)
        } catch let error as SourceError {
            throw error
        } catch {
            throw failure(path, String(describing: error))
        }
        guard head.isSuccess else { throw statusFailure(path, head, body: head.errorBody) }
    }

    /// Runs a decoding step, turning its errors into a source error for `path`.
    func decoded<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as JSONReadError {
            throw failure(path, error.description)
        }
    }

    func failure(_ path: String, _ problem: String, cause: SourceError.Cause = .answer, method: String = "GET") -> SourceError {
        SourceError(source: source, request: "\(method) \(URLRedaction.redact(url(path)))", problem: redacted(problem), cause: cause)
    }

    /// An HTTP error status, with the server's own message when it sent one.
    func statusFailure(_ path: String, _ head: HTTPResponseHead, body: [UInt8]) -> SourceError {
        var problem = "HTTP \(head.status)"
        switch head.status {
        case 401, 403:
            problem += token == nil ? " (access refused; walletwatch sends no credentials to this API, check the url)"
                                    : " (the token was refused; check token_file or token_env)"
        case 404: problem += " (not found; check the source's url)"
        case 429: problem += " (rate limited\(head.header("Retry-After").map { ", retry after \($0) s" } ?? ""))"
        default: break
        }
        if let message = Self.serverMessage(body) { problem += ": \(message)" }
        return failure(path, problem, cause: .status(head.status))
    }

    /// The `message` of a JSON error body, on one line and at most 200 characters.
    static func serverMessage(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        let message = try? JSONReader.read(body) { reader -> String? in
            var message: String?
            try reader.readObject { reader, key in
                if key.is("message"), reader.peekKind() == .string { message = try reader.readString() } else { try reader.skipValue() }
            }
            return message
        }
        guard let text = message ?? nil else { return nil }
        let oneLine = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined()
        return oneLine.count > 200 ? oneLine.prefix(200) + "…" : oneLine
    }

    /// A problem text with the token removed, in case a server echoed it back (a transport
    /// error's detail comes already redacted; redacting it again changes nothing).
    func redacted(_ text: String) -> String {
        token?.redact(text) ?? text
    }
}
