import Foundation
import Hummingbird

/// The Bitcoin Core JSON-RPC face, `POST /bitcoind/` with basic auth (the scenario's
/// `bitcoin.rpc_user` and `rpc_password`), so that a real Electrum server (ElectrumX) can index
/// the simulated chain: JSON-RPC 1.0 and 2.0, single requests and batches, answered as Core 31
/// answers them (`Content-Type: application/json`; `{"result", "error", "id"}` for 1.0). Only a
/// scenario with a `bitcoin` section has this face.
struct CoreRPCRoutes {
    let state: SimulatorState

    /// The largest request body read (a batch of a few thousand calls fits).
    static let maxBody = 16 * 1024 * 1024

    func register(on router: Router<SimRequestContext>) {
        router.post("bitcoind") { request, _ in try await answer(request) }
    }

    private func answer(_ request: Request) async throws -> Response {
        guard let bitcoin = state.bitcoin else { return Response(status: .notFound) }
        let expected = "Basic " + Data("\(bitcoin.rpcUser):\(bitcoin.rpcPassword)".utf8).base64EncodedString()
        guard request.headers[.authorization] == expected else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"jsonrpc\""])
        }
        let body = try await request.body.collect(upTo: Self.maxBody)
        guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView)) else {
            return Self.json(Self.reply(id: .null, version2: false, result: nil, error: .parseError), status: .internalServerError)
        }
        if case .array(let calls) = message {
            var replies: [JSONValue] = []
            for call in calls { replies.append(await answer(call).reply) }
            return Self.json(.array(replies), status: .ok)
        }
        let (reply, error, version2) = await answer(message)
        // Core's status for a single request: 200, or for a 1.0 request that failed 404 (unknown
        // method), 400 (invalid request) or 500.
        let status: HTTPResponse.Status = switch (error?.code, version2) {
        case (nil, _), (_, true): .ok
        case (CoreRPCError.methodNotFound.code?, false): .notFound
        case (CoreRPCError.invalidRequest.code?, false): .badRequest
        default: .internalServerError
        }
        return Self.json(reply, status: status)
    }

    /// One call's reply, its error, and whether it asked for JSON-RPC 2.0.
    private func answer(_ call: JSONValue) async -> (reply: JSONValue, error: CoreRPCError?, version2: Bool) {
        let id = call["id"] ?? .null
        let version2 = call["jsonrpc"] == .string("2.0")
        guard case .string(let method)? = call["method"] else {
            return (Self.reply(id: id, version2: version2, result: nil, error: .invalidRequest), .invalidRequest, version2)
        }
        do {
            let result = try await state.coreCall(method, CoreRPCParams(raw: call["params"]))
            return (Self.reply(id: id, version2: version2, result: result, error: nil), nil, version2)
        } catch {
            return (Self.reply(id: id, version2: version2, result: nil, error: error), error, version2)
        }
    }

    /// A 1.0 reply has both `result` and `error` (ElectrumX reads `error` on every reply); a
    /// 2.0 reply has one of them and `jsonrpc`.
    private static func reply(id: JSONValue, version2: Bool, result: JSONValue?, error: CoreRPCError?) -> JSONValue {
        guard version2 else {
            return .object([.init("result", result ?? .null), .init("error", error?.json ?? .null), .init("id", id)])
        }
        let outcome: JSONValue.Member = error.map { .init("error", $0.json) } ?? .init("result", result ?? .null)
        return .object([.init("jsonrpc", .string("2.0")), outcome, .init("id", id)])
    }

    /// `value` with exactly `Content-Type: application/json`, which ElectrumX compares byte for byte.
    private static func json(_ value: JSONValue, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: ElectrumWire.json(value))))
    }
}
