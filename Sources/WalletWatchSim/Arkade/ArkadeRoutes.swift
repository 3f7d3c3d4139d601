import Foundation
import Hummingbird
import WalletWatchBitcoin

/// The simulator's Arkade faces (SPEC.md section 27), answering as the pinned OpenAPI documents
/// describe (Tests/WalletWatchSimTests/Fixtures/specs/):
/// - Fulmine v0.3.24's REST gateway for each wallet under `/fulmine/<wallet>/api`: `GET /v1/balance`,
///   `/v1/transactions`, `/v1/vtxos`, `/v1/info`, `POST /v1/subscribe`, and the stream
///   `GET /v1/notifications` (one JSON object a line);
/// - arkd v0.9.15's REST gateway under `/arkd`: `GET /v1/info`, the indexer's
///   `GET /v1/indexer/vtxos` (paged), `POST /v1/indexer/script/subscribe` and the server-sent
///   event stream `GET /v1/indexer/script/subscription/{id}` (501 without `Accept: text/event-stream`).
/// Errors are `google.rpc.Status` bodies. Faults: the generic ones (``Fault``) by path, and
/// ``ArkadeFault`` for what only these APIs can get wrong.
struct ArkadeRoutes {
    let state: SimulatorState

    func register(on router: Router<SimRequestContext>) {
        let fulmine = router.group("fulmine/:wallet/api/v1")
        fulmine.get("balance") { _, context in
            let wallet = try await wallet(context)
            let vtxos = await state.arkade.vtxos(ofScripts: [wallet.script])
            let total = vtxos.filter { !$0.isSpent && !$0.isUnrolled }.reduce(Int64(0)) { $0 + $1.amount }
            return try context.json(FulmineBalanceWire(amount: try await amountText(total)))
        }
        fulmine.get("transactions") { _, context in
            let wallet = try await wallet(context)
            let unknown = await state.takeArkadeFault(.unknownEnum)
            var list: [FulmineTransactionWire] = []
            for entry in wallet.transactions.reversed() {
                list.append(FulmineTransactionWire(
                    date: entry.date.map(Self.rfc3339) ?? "0001-01-01T00:00:00Z", amount: try await amountText(entry.amount),
                    commitmentTxid: entry.commitmentTxid, arkTxid: entry.arkTxid, boardingTxid: entry.boardingTxid,
                    type: unknown ? "TX_TYPE_SWEPT" : entry.kind.rawValue, settledBy: entry.settledBy))
            }
            return try context.json(FulmineTransactionsWire(transactions: list))
        }
        fulmine.get("vtxos") { request, context in
            let wallet = try await wallet(context)
            var vtxos = await state.arkade.vtxos(ofScripts: [wallet.script])
            let query = request.uri.queryParameters
            let filters = ["spendableOnly", "spentOnly", "recoverableOnly"].filter { query[$0] != nil }
            guard filters.count <= 1 else { throw Self.status(.badRequest, 3, "only one of spendableOnly, spentOnly and recoverableOnly") }
            if let filter = filters.first {
                guard query[filter] == "true" else { throw Self.status(.badRequest, 3, "\(filter) must be true when given") }
                vtxos = vtxos.filter { vtxo in
                    switch filter {
                    case "spendableOnly": !vtxo.isSpent && !vtxo.isSwept && !vtxo.isUnrolled
                    case "spentOnly": vtxo.isSpent
                    default: !vtxo.isSpent && vtxo.isSwept
                    }
                }
            }
            return try context.json(ArkadeVtxosWire(vtxos: try await wires(vtxos, indexer: false)))
        }
        fulmine.get("info") { _, context in
            let wallet = try await wallet(context)
            let world = await state.arkade
            let network = switch world.network {
            case "regtest": "NETWORK_REGTEST"
            case "testnet": "NETWORK_TESTNET"
            // Fulmine maps only "mainnet", which arkd calls "bitcoin": a mainnet Fulmine says UNSPECIFIED.
            default: "NETWORK_UNSPECIFIED"
            }
            return try context.json(FulmineInfoWire(
                network: network, addrPrefix: world.addressPrefix, serverUrl: "http://127.0.0.1:7070",
                buildInfo: FulmineBuildInfoWire(version: "v0.3.24", commit: "b4461e8b", date: "2026-06-10T19:37:01Z"),
                pubkey: "02" + Hex.encode(wallet.key), signerPubkey: world.signerPubkeyHex))
        }
        fulmine.post("subscribe") { request, context in
            let name = try await wallet(context).name
            let body = try await ControlRoutes.body(AddressList.self, request, context)
            let prefix = await state.arkade.addressPrefix
            for address in body.addresses {
                guard let decoded = try? ArkAddress(address), decoded.hrp == prefix else {
                    throw Self.status(.badRequest, 3, "invalid address \(address)")
                }
            }
            await state.subscribeFulmine(name, addresses: body.addresses)
            return try context.json(EmptyWire())
        }
        fulmine.get("notifications") { _, context in
            let name = try await wallet(context).name
            let (id, stream) = await state.openArkadeStream(.fulmine(wallet: name))
            return Response(status: .ok, headers: [.contentType: "application/json"], body: body(of: stream, id: id))
        }

        let arkd = router.group("arkd/v1")
        arkd.get("info") { _, context in
            let world = await state.arkade
            return try context.json(ArkdInfoWire(
                signerPubkey: world.signerPubkeyHex, forfeitPubkey: world.signerPubkeyHex, network: world.network,
                sessionDuration: "15", unilateralExitDelay: "86528", boardingExitDelay: "7776000", version: "v0.9.15", dust: "330"))
        }
        arkd.get("indexer/vtxos") { request, context in try await indexerVtxos(request, context) }
        arkd.post("indexer/script/subscribe") { request, context in
            let body = try await ControlRoutes.body(ScriptList.self, request, context)
            guard !body.scripts.isEmpty else { throw Self.status(.badRequest, 3, "missing scripts") }
            for script in body.scripts where !Self.isTaprootScript(script) {
                throw Self.status(.badRequest, 3, "invalid script \(script)")
            }
            let id = await state.subscribeScripts(body.scripts, to: body.subscriptionId)
            return try context.json(SubscribeResponseWire(subscriptionId: id))
        }
        arkd.get("indexer/script/subscription/:id") { request, context in
            let id = try context.parameters.require("id")
            guard request.headers[.accept]?.contains("text/event-stream") == true else {
                throw Self.status(.notImplemented, 12, "streaming requires Accept: text/event-stream")
            }
            guard await state.arkade.subscriptions[id] != nil else { throw Self.status(.notFound, 5, "subscription \(id) not found") }
            let (streamID, stream) = await state.openArkadeStream(.arkd(subscription: id))
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body(of: stream, id: streamID))
        }
    }

    /// The indexer's VTXOs of `scripts`, paged as arkd pages (index 1 first, `next` = min(current + 1, total)).
    private func indexerVtxos(_ request: Request, _ context: SimRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let scripts = query.getAll("scripts").map { String($0) }
        guard !scripts.isEmpty else { throw Self.status(.badRequest, 3, "missing scripts or outpoints filter") }
        for script in scripts where !Self.isTaprootScript(script) {
            throw Self.status(.badRequest, 3, "invalid script \(script)")
        }
        let all = await state.arkade.vtxos(ofScripts: Set(scripts))
        guard let sizeText = query["page.size"] else {
            return try context.json(IndexerVtxosWire(vtxos: try await wires(all, indexer: true), page: nil))
        }
        guard let size = Int(sizeText), size > 0 else { throw Self.status(.badRequest, 3, "page size must be greater than 0") }
        let index = max(1, Int(query["page.index"] ?? "1") ?? 1)
        let total = max(1, (all.count + size - 1) / size)
        // The fault is served (and counted) on a page after the first, the one it can repeat.
        let repeats = index > 1 ? await state.takeArkadeFault(.pageRepeats) : false
        let shown = repeats ? index - 1 : index
        let slice = Array(all.dropFirst((shown - 1) * size).prefix(size))
        return try context.json(IndexerVtxosWire(
            vtxos: try await wires(slice, indexer: true), page: .init(current: index, next: min(index + 1, total), total: total)))
    }

    private func wallet(_ context: SimRequestContext) async throws -> SimFulmineWallet {
        let name = try context.parameters.require("wallet")
        guard let wallet = await state.arkade.wallets[name] else { throw Self.status(.notFound, 5, "wallet \(name) not found") }
        return wallet
    }

    /// A uint64 as the gateways write it, or (fault) a string that is not an integer.
    private func amountText(_ amount: Int64) async throws -> String {
        await state.takeArkadeFault(.amountNotInteger) ? "\(amount).5" : String(amount)
    }

    private func wires(_ vtxos: [SimArkVtxo], indexer: Bool) async throws -> [ArkadeVtxoWire] {
        var list: [ArkadeVtxoWire] = []
        for vtxo in vtxos { list.append(vtxo.wire(indexer: indexer, amountText: try await amountText(vtxo.amount))) }
        return list
    }

    /// A stream's messages as they come; the stream is forgotten when the body ends.
    private func body(of stream: AsyncStream<[UInt8]>, id: Int) -> ResponseBody {
        ResponseBody { [state] writer in
            do {
                for await chunk in stream { try await writer.write(ByteBuffer(bytes: chunk)) }
                await state.closeArkadeStream(id)
                try await writer.finish(nil)
            } catch {
                await state.closeArkadeStream(id)
                throw error
            }
        }
    }

    static func isTaprootScript(_ text: String) -> Bool {
        guard text.count == 68, text.hasPrefix("5120"), let bytes = Hex.decode(text) else { return false }
        return (try? ArkAddress(ArkAddress.encode(network: .bitcoin, signerKey: ArkadeKeys.probeSigner, vtxoTaprootKey: Array(bytes.dropFirst(2))))) != nil
    }

    /// Go's `time.RFC3339` of a UTC time (whole seconds, `Z`).
    static func rfc3339(_ time: SimTime) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time.milliseconds / 1000)))
    }

    /// A gateway error: `google.rpc.Status` with the gRPC `code`.
    static func status(_ status: HTTPResponse.Status, _ code: Int, _ message: String) -> ErrorResponse {
        ErrorResponse(response: .jsonError(RPCStatusWire(code: code, message: message), status: status))
    }

    struct AddressList: Decodable { var addresses: [String] }
    struct ScriptList: Decodable {
        var scripts: [String]
        var subscriptionId: String?
    }
}

extension SimulatorState {
    func subscribeFulmine(_ wallet: String, addresses: [String]) {
        arkade.wallets[wallet]?.subscribed.formUnion(addresses)
    }

    /// Adds `scripts` to subscription `id`, or to a new one; its id.
    func subscribeScripts(_ scripts: [String], to id: String?) -> String {
        let id = id.flatMap { arkade.subscriptions[$0] != nil ? $0 : nil } ?? String(arkade.newTxid().prefix(32))
        arkade.subscriptions[id, default: []].formUnion(scripts)
        return id
    }
}
