import Foundation
import Hummingbird

/// The EVM face's HTTP routes, for a scenario with an `evm` section: Ethereum JSON-RPC on
/// `POST /evm` (and any path below it, as providers put a key in the path:
/// `/evm/v3/KEY`), Etherscan's API V2 on `GET /etherscan/v2/api` and Blockscout's
/// Etherscan-compatible API on `GET /blockscout/api`. The HTTP faults of `/control/faults`
/// apply to these paths too (a 429, a slow answer, a body cut short); the EVM faults
/// (`/control/evm/faults`) change answers the way a broken or hostile node or explorer would.
struct EVMRoutes {
    let state: SimulatorState

    /// The largest JSON-RPC body read.
    static let maxBody = 16 * 1024 * 1024

    func register(on router: Router<SimRequestContext>) {
        for path in ["evm", "evm/**"] {
            router.post(RouterPath(path)) { request, context in try await rpc(request, context) }
            router.on(RouterPath(path), methods: [.get, .head, .put, .delete, .patch, .options]) { _, _ in
                Self.reply(EVMFace.errorReply(id: .null, EVMRPCError(-32600, "JSON-RPC takes POST")), status: .methodNotAllowed, edit: nil)
            }
        }
        router.get("etherscan/v2/api") { request, context in try await explorer(.etherscan, request, context) }
        router.get("blockscout/api") { request, context in try await explorer(.blockscout, request, context) }
    }

    private func rpc(_ request: Request, _ context: SimRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.maxBody)
        guard let answer = await state.answerEVM(rpc: Array(body.readableBytesView)) else {
            return noChain(request)
        }
        guard let reply = answer else { return Response(status: .ok, headers: [.contentType: "application/json"]) }
        return Self.reply(reply, status: .ok, edit: context.fault)
    }

    private func explorer(_ dialect: EVMFace.Dialect, _ request: Request, _ context: SimRequestContext) async throws -> Response {
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters where query[String(key)] == nil {
            query[String(key)] = String(value)
        }
        guard let answer = await state.answerEVM(explorer: dialect, query: query) else { return noChain(request) }
        return Self.reply(answer, status: .ok, edit: context.fault)
    }

    private func noChain(_ request: Request) -> Response {
        .json(Array(#"{"error":"no EVM chain: the scenario has no evm section"}"#.utf8), status: .notFound)
    }

    /// `value` as compact JSON, members in order, with an HTTP body fault's edit made on the way.
    private static func reply(_ value: JSONValue, status: HTTPResponse.Status, edit: FaultKind?) -> Response {
        .json((try? WireEncoder.encode(value, edit: edit)) ?? [], status: status)
    }
}
