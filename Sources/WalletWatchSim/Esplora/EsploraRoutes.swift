import Hummingbird

/// The Esplora HTTP API (Blockstream / mempool.space / electrs) under `/esplora`: address
/// stats and history with electrs' paging, transactions, the tip. Errors are plain text, as
/// electrs sends them.
struct EsploraRoutes {
    let state: SimulatorState

    func register(on router: Router<SimRequestContext>) {
        let esplora = router.group("esplora")
            .add(middleware: GetOnlyMiddleware(refusal: .text("Method Not Allowed", status: .methodNotAllowed)))
        esplora.on("blocks/tip/height") { _, context in
            try context.json(await state.chainTip, contentType: "text/plain; charset=utf-8")
        }
        esplora.on("blocks/tip/hash") { _, context in context.text(Fingerprint.blockHash(height: await state.chainTip)) }
        esplora.on("address/:address") { _, context in
            let history = try await addressHistory(context)
            return try context.json(AddressSummary(
                address: history.address, chainStats: history.chainStats, mempoolStats: history.mempoolStats))
        }
        esplora.on("address/:address/txs") { _, context in
            let history = try await addressHistory(context)
            let mempool = history.mempool.prefix(EsploraChain.mempoolLimit)
            return try await transactions(Array(mempool) + history.confirmedPage(before: nil, limit: EsploraChain.chainPageSize), context)
        }
        esplora.on("address/:address/txs/mempool") { _, context in
            try await transactions(Array(try await addressHistory(context).mempool.prefix(EsploraChain.mempoolLimit)), context)
        }
        esplora.on("address/:address/txs/chain") { _, context in
            try await transactions(try await addressHistory(context).confirmedPage(before: nil, limit: EsploraChain.chainPageSize), context)
        }
        esplora.on("address/:address/txs/chain/:txid") { _, context in
            let history = try await addressHistory(context)
            // electrs skips until the last seen txid; one it does not know gives an empty page.
            guard let key = history.key(of: try Self.txid(context)) else { return try await transactions([], context) }
            return try await transactions(history.confirmedPage(before: key, limit: EsploraChain.chainPageSize), context)
        }
        esplora.on("tx/:txid") { _, context in try context.json(try await transaction(context)) }
        esplora.on("tx/:txid/status") { _, context in try context.json(try await transaction(context).status) }
    }

    /// Whether `path` is Esplora's (`/esplora` and below).
    static func owns(_ path: String) -> Bool { path == "/esplora" || path.hasPrefix("/esplora/") }

    /// electrs' answer to a path it does not serve (another method than GET: 405).
    static func notFound(_ request: Request) -> Response {
        request.method == .get ? .text("Not Found", status: .notFound) : .text("Method Not Allowed", status: .methodNotAllowed)
    }

    private static func error(_ message: String, _ status: HTTPResponse.Status) -> ErrorResponse {
        ErrorResponse(response: .text(message, status: status))
    }

    private static func txid(_ context: SimRequestContext) throws -> String {
        let txid = context.parameters.get("txid") ?? ""
        guard txid.count == 64, txid.allSatisfy(\.isHexDigit) else { throw error("Invalid hex string", .badRequest) }
        return txid
    }

    private func addressHistory(_ context: SimRequestContext) async throws -> AddressHistory {
        let address = context.parameters.get("address") ?? ""
        guard (14...90).contains(address.count), address.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw Self.error("Invalid Bitcoin address", .badRequest)
        }
        return await state.addressHistory(address)
    }

    private func transaction(_ context: SimRequestContext) async throws -> EsploraTransaction {
        guard let spec = await state.esploraTransaction(try Self.txid(context)) else {
            throw Self.error("Transaction not found", .notFound)
        }
        return EsploraTransaction(spec, chainTime: await state.chainTime)
    }

    private func transactions(_ list: [EsploraTxSpec], _ context: SimRequestContext) async throws -> Response {
        let chainTime = await state.chainTime
        return try context.json(list.map { EsploraTransaction($0, chainTime: chainTime) })
    }
}

/// `GET /address/:address`: the address and its confirmed and mempool stats.
struct AddressSummary: Encodable {
    var address: String
    var chainStats: AddressStats
    var mempoolStats: AddressStats

    private enum CodingKeys: String, CodingKey { case address, chainStats = "chain_stats", mempoolStats = "mempool_stats" }
}
