import Hummingbird
import WalletWatchBitcoin

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
        esplora.on("blocks/tip/hash") { _, context in context.text(await state.blockHash(await state.chainTip)) }
        registerHistory(on: esplora, at: "address/:address", history: addressHistory) { history, _ in
            AddressSummary(address: history.address, chainStats: history.chainStats, mempoolStats: history.mempoolStats)
        }
        // The same listings keyed by script (Electrum's convention), as electrs serves them.
        registerHistory(on: esplora, at: "scripthash/:scripthash", history: scripthashHistory) { history, context in
            ScripthashSummary(scripthash: context.parameters.get("scripthash") ?? "", chainStats: history.chainStats,
                              mempoolStats: history.mempoolStats)
        }
        registerBlocks(on: esplora)
        esplora.on("tx/:txid") { _, context in try context.json(try await transaction(context)) }
        esplora.on("tx/:txid/status") { _, context in try context.json(try await transaction(context).status) }
        esplora.on("tx/:txid/hex") { _, context in
            guard let bytes = await state.rawTransaction(try Self.txid(context)) else { throw Self.error("Transaction not found", .notFound) }
            return context.text(Hex.encode(bytes))
        }
    }

    /// The stats and paged transaction listings of one address or script under `path`.
    private func registerHistory<Summary: Encodable & Sendable>(
        on esplora: RouterGroup<SimRequestContext>, at path: String,
        history: @escaping @Sendable (SimRequestContext) async throws -> AddressHistory,
        summary: @escaping @Sendable (AddressHistory, SimRequestContext) -> Summary
    ) {
        esplora.on(RouterPath(path)) { _, context in try context.json(summary(try await history(context), context)) }
        esplora.on(RouterPath(path + "/txs")) { _, context in
            let history = try await history(context)
            let mempool = history.mempool.prefix(EsploraChain.mempoolLimit)
            return try await transactions(Array(mempool) + history.confirmedPage(before: nil, limit: EsploraChain.chainPageSize), context)
        }
        esplora.on(RouterPath(path + "/txs/mempool")) { _, context in
            try await transactions(Array(try await history(context).mempool.prefix(EsploraChain.mempoolLimit)), context)
        }
        esplora.on(RouterPath(path + "/txs/chain")) { _, context in
            try await transactions(try await history(context).confirmedPage(before: nil, limit: EsploraChain.chainPageSize), context)
        }
        esplora.on(RouterPath(path + "/txs/chain/:txid")) { _, context in
            let history = try await history(context)
            // electrs skips until the last seen txid; one it does not know gives an empty page.
            guard let key = history.key(of: try Self.txid(context)) else { return try await transactions([], context) }
            return try await transactions(history.confirmedPage(before: key, limit: EsploraChain.chainPageSize), context)
        }
    }

    /// Whether `path` is Esplora's (`/esplora` and below).
    static func owns(_ path: String) -> Bool { path == "/esplora" || path.hasPrefix("/esplora/") }

    /// electrs' answer to a path it does not serve (another method than GET: 405).
    static func notFound(_ request: Request) -> Response {
        request.method == .get ? .text("Not Found", status: .notFound) : .text("Method Not Allowed", status: .methodNotAllowed)
    }

    static func error(_ message: String, _ status: HTTPResponse.Status) -> ErrorResponse {
        ErrorResponse(response: .text(message, status: status))
    }

    private static func txid(_ context: SimRequestContext) throws -> String {
        let txid = context.parameters.get("txid") ?? ""
        guard txid.count == 64, txid.allSatisfy(\.isHexDigit) else { throw error("Invalid hex string", .badRequest) }
        return txid
    }

    private func scripthashHistory(_ context: SimRequestContext) async throws -> AddressHistory {
        let scripthash = context.parameters.get("scripthash") ?? ""
        guard scripthash.count == 64, scripthash.allSatisfy(\.isHexDigit) else { throw Self.error("Invalid hex string", .badRequest) }
        return await state.scripthashHistory(scripthash.lowercased())
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
        return EsploraTransaction(spec, stamp: await state.stamps(of: [spec])[0])
    }

    func transactions(_ list: [EsploraTxSpec], _ context: SimRequestContext) async throws -> Response {
        let stamps = await state.stamps(of: list)
        return try context.json(zip(list, stamps).map { EsploraTransaction($0, stamp: $1) })
    }
}

/// `GET /address/:address`: the address and its confirmed and mempool stats.
struct AddressSummary: Encodable, Sendable {
    var address: String
    var chainStats: AddressStats
    var mempoolStats: AddressStats

    private enum CodingKeys: String, CodingKey { case address, chainStats = "chain_stats", mempoolStats = "mempool_stats" }
}

/// `GET /scripthash/:hash`: the script key and its confirmed and mempool stats.
struct ScripthashSummary: Encodable, Sendable {
    var scripthash: String
    var chainStats: AddressStats
    var mempoolStats: AddressStats

    private enum CodingKeys: String, CodingKey { case scripthash, chainStats = "chain_stats", mempoolStats = "mempool_stats" }
}
