import Foundation

/// The control API for tests and demos, under `/control`. JSON in and out; errors are
/// `{"error": "..."}` with 400 (bad input), 404 (unknown wallet, movement or transaction) or
/// 409 (already exists). Control requests are not recorded in the request log and never
/// get faults.
///
/// | method | path | body | effect |
/// |---|---|---|---|
/// | GET | /control/state | | wallets, chain tip, prices, faults |
/// | POST | /control/barkd/{wallet}/movements | Movement (id 0 or absent = next) | adds it, pushes `movement-created`; 201 + the movement |
/// | POST, PATCH | /control/barkd/{wallet}/movements/{id} | MovementUpdate (`status`, `intended_balance_sat`, `effective_balance_sat`, `offchain_fee_sat`, `completed_at`, `updated_at`) | pushes `movement-updated`; the movement |
/// | PUT, DELETE | /control/barkd/{wallet}/balance | Balance | sets it; DELETE returns to the balance derived from the movements |
/// | PUT, DELETE | /control/barkd/{wallet}/onchain-balance | OnchainBalance | sets it; DELETE returns to the one derived from the on-chain transactions |
/// | PUT | /control/barkd/{wallet}/tip | `{"tip_height": N}` | this wallet's tip only |
/// | PUT | /control/barkd/{wallet}/vtxos | [WalletVtxoInfo] | replaces them |
/// | PUT | /control/barkd/{wallet}/utxos | [UtxoInfo] | replaces them |
/// | POST | /control/barkd/{wallet}/onchain-transactions | WalletTxInfo (`tx` optional) | appends it |
/// | POST | /control/barkd/{wallet}/onchain-transactions/{txid}/confirm | `{"height": N, "hash": optional}` | |
/// | POST | /control/esplora/transactions | compact EsploraTxSpec | mempool without `block_height` |
/// | POST | /control/esplora/transactions/{txid}/confirm | `{"block_height": N, "block_time": optional unix}` | |
/// | DELETE | /control/esplora/transactions/{txid} | | evicts a mempool transaction |
/// | PUT | /control/chain/tip | `{"tip_height": N}` | Esplora's tip and every wallet without its own |
/// | PUT | /control/prices | `{"USD": 65000.12, ...}` | replaces the table (PATCH merges) |
/// | GET, POST, DELETE | /control/faults | Fault (POST) | list, add (201), clear all |
/// | GET, DELETE | /control/requests | | the request log, oldest first; reset |
///
/// PUT endpoints also accept POST.
struct ControlRoutes: Sendable {
    let simulator: SimulatorState

    func respond(to request: SimRequest, body: [UInt8]) async -> SimResponse {
        guard let segments = request.segments(after: "/control") else { return notFound(request) }
        do {
            return try await route(request.method, segments, body: Data(body)) ?? notFound(request)
        } catch let error as SimulatorError {
            return ControlRoutes.error(error.httpStatus, error.message)
        } catch let error as DecodingError {
            return ControlRoutes.error(400, "bad request body: \(SimulatorError.describe(error))")
        } catch {
            return ControlRoutes.error(500, "\(error)")
        }
    }

    private func route(_ method: String, _ segments: [String], body: Data) async throws -> SimResponse? {
        let setting = method == "PUT" || method == "POST"
        switch (method, segments) {
        case ("GET", ["state"]):
            return try ControlRoutes.encoded(await snapshot())
        case ("GET", ["requests"]):
            return try ControlRoutes.encoded(await simulator.requests)
        case ("DELETE", ["requests"]):
            await simulator.resetRequests()
            return SimResponse(status: 204, body: .bytes([]))
        case ("GET", ["faults"]):
            return try ControlRoutes.encoded(await simulator.activeFaults)
        case ("POST", ["faults"]):
            let fault = try decode(Fault.self, body)
            try await simulator.addFault(fault)
            return try ControlRoutes.encoded(fault, status: 201)
        case ("DELETE", ["faults"]):
            await simulator.clearFaults()
            return SimResponse(status: 204, body: .bytes([]))
        case (_, ["prices"]) where setting || method == "PATCH":
            await simulator.setPrices(try decode(PriceTable.self, body), replacing: method != "PATCH")
            return try ControlRoutes.encoded(await simulator.prices)
        case (_, ["chain", "tip"]) where setting:
            try await simulator.setChainTip(try decode(TipBody.self, body).tipHeight)
            return try ControlRoutes.encoded(TipBody(tipHeight: await simulator.chainTip))
        case ("POST", ["esplora", "transactions"]):
            let transaction = try decode(EsploraTxSpec.self, body)
            try await simulator.addEsploraTransaction(transaction)
            return try ControlRoutes.encoded(transaction, status: 201)
        case ("POST", let path) where path.count == 4 && path[0] == "esplora" && path[1] == "transactions" && path[3] == "confirm":
            let block = try decode(EsploraConfirmation.self, body)
            try await simulator.confirmEsploraTransaction(path[2], height: block.blockHeight, time: block.blockTime)
            return try ControlRoutes.encoded(await simulator.esploraTransaction(path[2]))
        case ("DELETE", let path) where path.count == 3 && path[0] == "esplora" && path[1] == "transactions":
            try await simulator.evictEsploraTransaction(path[2])
            return SimResponse.json(SimJSON.object([.init("evicted", .string(path[2]))]))
        case (_, let path) where path.count >= 3 && path[0] == "barkd":
            return try await wallet(method, path[1], Array(path.dropFirst(2)), body: body)
        default:
            return nil
        }
    }

    private func wallet(_ method: String, _ name: String, _ rest: [String], body: Data) async throws -> SimResponse? {
        let setting = method == "PUT" || method == "POST"
        switch (method, rest) {
        case ("POST", ["movements"]):
            let movement = try await simulator.addMovement(try decode(BarkdMovement.self, body), to: name)
            return try ControlRoutes.encoded(movement, status: 201)
        case (let verb, let path) where (verb == "POST" || verb == "PATCH") && path.count == 2 && path[0] == "movements":
            guard let id = Int(path[1]) else { throw SimulatorError(.invalid, "movement id must be a number: \(path[1])") }
            let movement = try await simulator.updateMovement(id: id, in: name, try decode(MovementUpdate.self, body))
            return try ControlRoutes.encoded(movement)
        case (_, ["balance"]) where setting:
            let balance = try decode(BarkdBalance.self, body)
            try await simulator.modifyWallet(name) { $0.explicitBalance = balance }
            return try ControlRoutes.encoded(balance)
        case ("DELETE", ["balance"]):
            try await simulator.modifyWallet(name) { $0.explicitBalance = nil }
            return SimResponse(status: 204, body: .bytes([]))
        case ("DELETE", ["onchain-balance"]):
            try await simulator.modifyWallet(name) { $0.explicitOnchainBalance = nil }
            return SimResponse(status: 204, body: .bytes([]))
        case (_, ["onchain-balance"]) where setting:
            let balance = try decode(BarkdOnchainBalance.self, body)
            try await simulator.modifyWallet(name) { $0.explicitOnchainBalance = balance }
            return try ControlRoutes.encoded(balance)
        case (_, ["tip"]) where setting:
            let tip = try decode(TipBody.self, body).tipHeight
            guard tip >= 0 else { throw SimulatorError(.invalid, "a tip height must be >= 0") }
            try await simulator.modifyWallet(name) { $0.tipHeight = tip }
            return try ControlRoutes.encoded(TipBody(tipHeight: tip))
        case (_, ["vtxos"]) where setting:
            let vtxos = try decode([BarkdVtxo].self, body)
            try await simulator.modifyWallet(name) { $0.vtxos = vtxos }
            return try ControlRoutes.encoded(vtxos)
        case (_, ["utxos"]) where setting:
            let utxos = try decode([BarkdUtxo].self, body)
            try await simulator.modifyWallet(name) { $0.utxos = utxos }
            return try ControlRoutes.encoded(utxos)
        case ("POST", ["onchain-transactions"]):
            let transaction = try decode(BarkdWalletTx.self, body)
            try await simulator.addOnchainTransaction(transaction, to: name)
            return try ControlRoutes.encoded(transaction, status: 201)
        case ("POST", let path) where path.count == 3 && path[0] == "onchain-transactions" && path[2] == "confirm":
            let block = try decode(BarkdBlockRef.self, body)
            try await simulator.confirmOnchainTransaction(path[1], in: name, at: block)
            return try ControlRoutes.encoded(block)
        default:
            return nil
        }
    }

    private func snapshot() async -> StateSummary {
        StateSummary(chainTip: await simulator.chainTip, now: simulator.clock.now(), prices: await simulator.prices,
                     faults: await simulator.activeFaults, wallets: await simulator.walletNames)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ body: Data) throws -> T {
        guard !body.isEmpty else { throw SimulatorError(.invalid, "this request needs a JSON body") }
        return try JSONDecoder().decode(type, from: body)
    }

    private func notFound(_ request: SimRequest) -> SimResponse {
        ControlRoutes.error(404, "no control endpoint \(request.method) \(request.path)")
    }

    static func error(_ status: Int, _ message: String) -> SimResponse {
        var out = JSONBuffer()
        out.beginObject()
        out.field("error", message)
        out.endObject()
        return SimResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(out.bytes))
    }

    static func encoded(_ value: some Encodable, status: Int = 200) throws -> SimResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return SimResponse(status: status, headers: [("Content-Type", "application/json")],
                           body: .bytes(Array(try encoder.encode(value))))
    }
}

/// `{"tip_height": N}`.
struct TipBody: Codable, Sendable {
    var tipHeight: Int
    private enum CodingKeys: String, CodingKey { case tipHeight = "tip_height" }
}

/// `{"block_height": N, "block_time": T}` for confirming an Esplora transaction.
struct EsploraConfirmation: Codable, Sendable {
    var blockHeight: Int
    var blockTime: Int64?
    private enum CodingKeys: String, CodingKey { case blockHeight = "block_height", blockTime = "block_time" }
}

/// What `GET /control/state` answers.
struct StateSummary: Encodable, Sendable {
    var chainTip: Int
    var now: SimTime
    var prices: PriceTable
    var faults: [Fault]
    var wallets: [String]
    private enum CodingKeys: String, CodingKey { case chainTip = "chain_tip", now, prices, faults, wallets }
}
