import Foundation
import Hummingbird

/// The control API for tests and demos, under `/control`. JSON in and out; errors are
/// `{"error": "..."}` with 400 (bad input), 404 (unknown wallet, movement or transaction) or
/// 409 (already exists, or a change the chain cannot take). Control requests are not recorded in
/// the request log and never get faults. Transactions are "real" (in blocks; served by the
/// Electrum and Core faces of a real chain) when the simulator made them (payments, HD deposits
/// and spends, replacements) or when a posted one's txid hashes what it describes and its inputs
/// spend real outputs; others (made-up txids) are Esplora's only.
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
/// | POST | /control/esplora/transactions | compact EsploraTxSpec | mempool without `block_height`; real only if its txid hashes it and its inputs spend real outputs |
/// | POST | /control/esplora/transactions/{txid}/confirm | `{"block_height": N, "block_time": optional unix}` | moves it to block N (a real one: its parents mined no later, its children no earlier; `block_time` sets the block's time) |
/// | DELETE | /control/esplora/transactions/{txid} | | evicts a mempool transaction and the mempool transactions spending it; `{"evicted": txid, "descendants": [...]}` |
/// | POST | /control/esplora/hd/{wallet}/deposit | `{"index": N, "chain": "receive"\|"change", "value": sats, "block_height": N}` | a payment from the faucet (mempool without `block_height`); 201 + the transaction |
/// | POST | /control/esplora/hd/{wallet}/spend | `{"change_index": N, "pay": sats, "block_height": N}` | spends the oldest coins, change to `change_index` (`pay` 0: to itself); 201 + the transaction |
/// | GET | /control/esplora/hd/{wallet}/address/{chain}/{index} | | `{"address": ...}` |
/// | GET | /control/chain | | `{"real", "network", "tip_height", "tip_hash", "genesis_hash", "faucet_address", "mempool": [txids]}` |
/// | PUT | /control/chain/tip | `{"tip_height": N}` | Esplora's tip and every wallet without its own (a real chain's only rises: 409) |
/// | POST | /control/chain/payments | `{"address": any network's, "value": sats, "block_height": N, "fee": sats}` | a real payment from the faucet (mempool without `block_height`; fee default about 1 sat/vB); 201 + the transaction |
/// | POST | /control/chain/mine | `{"blocks": N}` (optional, default 1) | mines the mempool into the next block, then N-1 empty ones; `{"tip_height", "mined": [txids]}` |
/// | POST | /control/chain/transactions/{txid}/replace | `{"fee": sats, "outputs": [{"address", "value"}]}` (both optional) | RBF: a replacement spending the same inputs (default: old fee + 1,000, taken from the last output); 201 + `{"replacement", "evicted": [txids]}` |
/// | POST | /control/chain/reorg | `{"depth": N, "blocks": M, "transactions": "mempool"\|"drop"\|"mine"}` | replaces the last N blocks with M new ones (default N+1), new hashes; their transactions back to the mempool (default), dropped with their descendants, or mined again in the new tip; `{"fork_height", "old_tip", "tip_height", "transactions", "dropped"}`; 409 when a replaced block's coinbase is spent |
/// | GET | /control/electrum | | a real chain's endpoints: `electrum_tcp`, `electrum_tls`, their ports, `certificate_sha256`, `certificate_path`, `key_path`, `core_rpc` (with credentials), `network`, `genesis_hash`, `http`; 404 without a `bitcoin` section |
/// | GET, POST, DELETE | /control/electrum/faults | ElectrumFault (POST) | list, add (201), clear all |
/// | GET, DELETE | /control/electrum/requests | | the Electrum face's calls (`connection`, `transport`, `write`, `batch`, `method`, `params`, `id`, `time`, `fault`), oldest first; reset |
/// | GET | /control/evm | | the EVM chain: `chain_id`, `native`, `tip_height`, `tip_hash`, `safe`, `finalized`, their depths, `block_time`, `latest_timestamp`, `faucet`, `accounts` (name, address, latest balance), `tokens` (symbol, name, decimals, address, `created_in`), `contracts`, `mempool`; 404 without an `evm` section |
/// | POST | /control/evm/accounts | `{"name", "address": optional}` | names an account (no balance: fund it with a transfer); 201 + `{"name", "address"}` |
/// | POST | /control/evm/tokens | `{"symbol", "name", "decimals", "address", "minter"}` | declares a token without code: a `create` transaction deploys it; 201 + `{"name", "address"}` |
/// | POST | /control/evm/contracts | `{"name", "address"}` | declares a forwarding contract without code, as for tokens |
/// | POST | /control/evm/transactions | EVMTransactionSpec (`type` transfer, token_transfer, mint, internal or create; `fail`, `gas_used`, `mine`...) | signs it (nonce, fees) and mines it at once in a block of its own, or with `"mine": false` leaves it in the mempool; 201 + `{"hash", "from", "to", "nonce", "block_number", "block_hash", "status", "gas_used", "effective_gas_price", "fee", "contract_address"}`; 409 when the sender cannot pay |
/// | GET | /control/evm/transactions/{hash} | | the same answer for a mined or waiting transaction |
/// | POST | /control/evm/mine | `{"blocks": N, "timestamp": unix}` (both optional) | mines N blocks (default 1), the first taking the mempool; `timestamp` sets the first one's time; `{"tip_height", "mined", "transactions", "dropped"}` |
/// | POST | /control/evm/reorg | `{"depth": N, "blocks": M, "drop": [hashes], "force": bool}` | replaces the last N blocks with M (default N) new ones, their transactions (except `drop`ped ones and those after a dropped one of the same sender) mined again in the first; refused below the finalized block unless `force`; `{"fork_block", "replaced": {height: old hash}, "mined", "dropped", "pending", "tip"}` |
/// | PUT | /control/evm/finality | `{"finality_depth": N, "safe_depth": M}` | how far below the tip `finalized` and `safe` are; the summary |
/// | GET, POST, DELETE | /control/evm/faults | EVMFault (POST) | list, add (201), clear all |
/// | GET, DELETE | /control/evm/requests | | the EVM face's calls (`face`, `request`, `batch`, `method`, `params`, `time`, `faults`), oldest first; reset |
/// | PUT | /control/prices | `{"USD": 65000.12, ..., "coins": {"ethereum": {"USD": 3000, ...}}}` (bitcoin's prices, other coins by CoinGecko id; without `coins`, the default coins) | replaces the table (PATCH changes only what it names) |
/// | GET, POST, DELETE | /control/faults | Fault (POST) | list, add (201), clear all |
/// | GET, DELETE | /control/requests | | the request log, oldest first; reset |
/// | | /control/arkade/... | | the Fulmine and arkd faces: see ``ArkadeControlRoutes`` |
///
/// PUT endpoints also accept POST.
struct ControlRoutes {
    let state: SimulatorState

    /// Whether `path` is the control API's (`/control` and below).
    static func owns(_ path: String) -> Bool { path == "/control" || path.hasPrefix("/control/") }

    /// The answer to a control request that matches no endpoint.
    static func notFound(_ request: Request) -> Response {
        error(.notFound, "no control endpoint \(request.method.rawValue) \(request.uri.path)")
    }

    func register(on router: Router<SimRequestContext>) {
        let control = router.group("control").add(middleware: ControlErrorMiddleware())
        ArkadeControlRoutes(state: state).register(on: control)
        control.get("state") { _, _ in
            try Self.reply(StateSummary(
                chainTip: await state.chainTip, now: state.clock.now(), prices: await state.prices,
                faults: await state.activeFaults, wallets: await state.walletNames))
        }
        control.get("requests") { _, _ in try Self.reply(await state.requests) }
        control.delete("requests") { _, _ in
            await state.resetRequests()
            return Response(status: .noContent)
        }
        control.get("faults") { _, _ in try Self.reply(await state.activeFaults) }
        control.post("faults") { request, context in
            let fault = try await Self.body(Fault.self, request, context)
            try await state.addFault(fault)
            return try Self.reply(fault, status: .created)
        }
        control.delete("faults") { _, _ in
            await state.clearFaults()
            return Response(status: .noContent)
        }
        control.on("prices", methods: [.put, .post, .patch]) { request, context in
            if request.method == .patch {
                await state.patchPrices(try await Self.body(PricePatch.self, request, context))
            } else {
                await state.setPrices(try await Self.body(PriceTable.self, request, context))
            }
            return try Self.reply(await state.prices)
        }
        control.on("chain/tip", methods: [.put, .post]) { request, context in
            try await state.setChainTip(try await Self.body(TipBody.self, request, context).tipHeight)
            return try Self.reply(TipBody(tipHeight: await state.chainTip))
        }
        control.post("esplora/transactions") { request, context in
            let transaction = try await Self.body(EsploraTxSpec.self, request, context)
            try await state.addEsploraTransaction(transaction)
            return try Self.reply(transaction, status: .created)
        }
        control.post("esplora/transactions/:txid/confirm") { request, context in
            let txid = try context.parameters.require("txid")
            let block = try await Self.body(EsploraConfirmation.self, request, context)
            try await state.confirmEsploraTransaction(txid, height: block.blockHeight, time: block.blockTime)
            return try Self.reply(await state.esploraTransaction(txid))
        }
        control.delete("esplora/transactions/:txid") { _, context in
            let txid = try context.parameters.require("txid")
            let evicted = try await state.evictEsploraTransaction(txid)
            return try Self.reply(EvictionReply(evicted: txid, descendants: Array(evicted.dropFirst())))
        }
        registerWallets(on: control.group("barkd/:wallet"))
        registerHDWallets(on: control.group("esplora/hd/:wallet"))
        control.get("chain") { _, _ in try Self.reply(await state.chainSummary()) }
        registerChain(on: control.group("chain"))
        registerElectrum(on: control)
        registerEVM(on: control)
    }

    private func registerWallets(on wallet: RouterGroup<SimRequestContext>) {
        wallet.post("movements") { request, context in
            let movement = try await state.addMovement(
                try await Self.body(BarkdMovement.self, request, context), to: try context.parameters.require("wallet"))
            return try Self.reply(movement, status: .created)
        }
        wallet.on("movements/:id", methods: [.post, .patch]) { request, context in
            let text = try context.parameters.require("id")
            guard let id = Int(text) else { throw SimulatorError(.invalid, "movement id must be a number: \(text)") }
            let update = try await Self.body(MovementUpdate.self, request, context)
            return try Self.reply(try await state.updateMovement(id: id, in: try context.parameters.require("wallet"), update))
        }
        setting("balance", BarkdBalance.self, on: wallet) { $0.explicitBalance = $1 }
        wallet.delete("balance") { _, context in
            try await state.modifyWallet(try context.parameters.require("wallet")) { $0.explicitBalance = nil }
            return Response(status: .noContent)
        }
        setting("onchain-balance", BarkdOnchainBalance.self, on: wallet) { $0.explicitOnchainBalance = $1 }
        wallet.delete("onchain-balance") { _, context in
            try await state.modifyWallet(try context.parameters.require("wallet")) { $0.explicitOnchainBalance = nil }
            return Response(status: .noContent)
        }
        setting("tip", TipBody.self, on: wallet) { wallet, tip in
            guard tip.tipHeight >= 0 else { throw SimulatorError(.invalid, "a tip height must be >= 0") }
            wallet.tipHeight = tip.tipHeight
        }
        setting("vtxos", [BarkdVtxo].self, on: wallet) { $0.vtxos = $1 }
        setting("utxos", [BarkdUtxo].self, on: wallet) { $0.utxos = $1 }
        wallet.post("onchain-transactions") { request, context in
            let transaction = try await Self.body(BarkdWalletTx.self, request, context)
            try await state.addOnchainTransaction(transaction, to: try context.parameters.require("wallet"))
            return try Self.reply(transaction, status: .created)
        }
        wallet.post("onchain-transactions/:txid/confirm") { request, context in
            let block = try await Self.body(BarkdBlockRef.self, request, context)
            try await state.confirmOnchainTransaction(
                try context.parameters.require("txid"), in: try context.parameters.require("wallet"), at: block)
            return try Self.reply(block)
        }
    }

    /// `PUT` (or `POST`) `path` with a `Value` body: applies it to the wallet and answers it.
    private func setting<Value: Codable & Sendable>(
        _ path: RouterPath, _ type: Value.Type, on wallet: RouterGroup<SimRequestContext>,
        _ apply: @escaping @Sendable (inout WalletState, Value) throws -> Void
    ) {
        wallet.on(path, methods: [.put, .post]) { request, context in
            let value = try await Self.body(Value.self, request, context)
            try await state.modifyWallet(try context.parameters.require("wallet")) { try apply(&$0, value) }
            return try Self.reply(value)
        }
    }

    /// The request's JSON body as a `T`.
    static func body<T: Decodable>(_ type: T.Type, _ request: Request, _ context: SimRequestContext) async throws -> T {
        guard let value = try await optionalBody(type, request, context) else { throw SimulatorError(.invalid, "this request needs a JSON body") }
        return value
    }

    /// `value` as JSON with sorted keys (the control API's answers are for tests and scripts).
    static func reply(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .json(Array(try encoder.encode(value)), status: status)
    }

    /// `{"error": "..."}` with `status`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        .jsonError(["error": message], status: status)
    }
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

/// What `DELETE /control/esplora/transactions/{txid}` answers: the transaction evicted and the
/// mempool transactions that spent it, evicted with it.
struct EvictionReply: Encodable, Sendable {
    var evicted: String
    var descendants: [String]
}
