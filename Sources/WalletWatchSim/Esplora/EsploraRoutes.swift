/// The Esplora HTTP API (Blockstream / mempool.space / electrs) under `/esplora`: address
/// stats and history with electrs' paging, transactions, the tip. Errors are plain text, as
/// electrs sends them.
struct EsploraRoutes: Sendable {
    let state: SimulatorState

    func respond(to request: SimRequest, segments: [String]) async -> SimResponse {
        guard request.method == "GET" else { return .text("Method Not Allowed", status: 405) }
        switch segments.count > 0 ? segments[0] : "" {
        case "blocks":
            if segments == ["blocks", "tip", "height"] { return .text(String(await state.chainTip)) }
            if segments == ["blocks", "tip", "hash"] { return .text(Fingerprint.blockHash(height: await state.chainTip)) }
        case "address":
            guard segments.count >= 2 else { break }
            return await address(segments[1], rest: Array(segments.dropFirst(2)))
        case "tx":
            guard segments.count == 2 || (segments.count == 3 && segments[2] == "status") else { break }
            return await transaction(segments[1], statusOnly: segments.count == 3)
        default:
            break
        }
        return .text("Not Found", status: 404)
    }

    private func address(_ address: String, rest: [String]) async -> SimResponse {
        guard (14...90).contains(address.count), address.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return .text("Invalid Bitcoin address", status: 400)
        }
        let history = await state.addressHistory(address)
        let chainTime = await state.chainTime
        switch rest {
        case []:
            var out = JSONBuffer()
            out.beginObject()
            out.field("address", address)
            out.field("chain_stats", history.chainStats)
            out.field("mempool_stats", history.mempoolStats)
            out.endObject()
            return SimResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(out.bytes))
        case ["txs"]:
            let mempool = Array(history.mempool.prefix(EsploraChain.mempoolLimit))
            let confirmed = history.confirmedPage(before: nil, limit: EsploraChain.chainPageSize)
            return transactions(mempool + confirmed, chainTime)
        case ["txs", "mempool"]:
            return transactions(Array(history.mempool.prefix(EsploraChain.mempoolLimit)), chainTime)
        case ["txs", "chain"]:
            return transactions(history.confirmedPage(before: nil, limit: EsploraChain.chainPageSize), chainTime)
        case let path where path.count == 3 && path[0] == "txs" && path[1] == "chain":
            let lastSeen = path[2]
            guard lastSeen.count == 64, lastSeen.allSatisfy(\.isHexDigit) else {
                return .text("Invalid hex string", status: 400)
            }
            // electrs skips until the last seen txid; one it does not know gives an empty page.
            guard let key = history.key(of: lastSeen) else { return transactions([], chainTime) }
            return transactions(history.confirmedPage(before: key, limit: EsploraChain.chainPageSize), chainTime)
        default:
            return .text("Not Found", status: 404)
        }
    }

    private func transaction(_ txid: String, statusOnly: Bool) async -> SimResponse {
        guard txid.count == 64, txid.allSatisfy(\.isHexDigit) else { return .text("Invalid hex string", status: 400) }
        guard let transaction = await state.esploraTransaction(txid) else {
            return .text("Transaction not found", status: 404)
        }
        let chainTime = await state.chainTime
        let json = EsploraTxJSON(transaction: transaction, blockTime: chainTime.time(ofHeight:))
        guard statusOnly else { return .json(json) }
        let full = (try? SimJSON(parsing: json.jsonBytes)) ?? .null
        return .json(full["status"] ?? .null)
    }

    private func transactions(_ list: [EsploraTxSpec], _ chainTime: ChainTime) -> SimResponse {
        .json(list.map { EsploraTxJSON(transaction: $0, blockTime: chainTime.time(ofHeight:)) })
    }
}
