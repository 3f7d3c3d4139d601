import Hummingbird

/// The control API's Arkade endpoints, under `/control/arkade` (see ``ControlRoutes``):
///
/// | method | path | body | effect |
/// |---|---|---|---|
/// | GET | /control/arkade | | `{"network", "signer_pubkey", "wallets": {name: {"address", "script"}}, "vtxos", "streams"}` |
/// | POST | /control/arkade/receipts | `{"wallet"` or `"address", "amount", "batch"}` | a new VTXO (preconfirmed unless `batch`); pushed; 201 + `{"outpoint", "script", "amount"}` |
/// | POST | /control/arkade/spends | `{"outpoint", "change"}` | an Ark transaction spending it, `change` back to its script; pushed; 201 + `{"ark_txid"}` |
/// | POST | /control/arkade/sweeps, /control/arkade/unrolls | `{"outpoint"}` | marks it swept by the server, or unrolled on-chain; pushed |
/// | POST | /control/arkade/boardings | `{"wallet", "amount"}` | a pending boarding deposit (Fulmine); 201 + `{"boarding_txid"}` |
/// | POST | /control/arkade/settlements | `{"wallet", "boarding_txid"}` | settles it into a batch: a VTXO; pushed; 201 + the VTXO |
/// | PUT, DELETE | /control/arkade/fault | ArkadeFault `{"kind", "times"}` | sets or clears the faces' fault |
/// | POST | /control/arkade/streams/end | | ends every open stream; `{"ended": N}` |
struct ArkadeControlRoutes {
    let state: SimulatorState

    func register(on control: RouterGroup<SimRequestContext>) {
        control.get("arkade") { _, _ in
            let world = await state.arkade
            var wallets: [String: [String: String]] = [:]
            for (name, wallet) in world.wallets { wallets[name] = ["address": world.address(ofKey: wallet.key), "script": wallet.script] }
            return try ControlRoutes.reply(Summary(
                network: world.network, signerPubkey: world.signerPubkeyHex, wallets: wallets, vtxos: world.vtxos.count,
                streams: await state.arkadeStreamCount()))
        }
        control.post("arkade/receipts") { request, context in
            let receipt = try await ControlRoutes.body(ArkadeReceipt.self, request, context)
            let vtxo = try await state.arkadeReceive(wallet: receipt.wallet, address: receipt.address, amount: receipt.amount, batch: receipt.batch ?? false)
            return try ControlRoutes.reply(Created(vtxo), status: .created)
        }
        control.post("arkade/spends") { request, context in
            let spend = try await ControlRoutes.body(Spend.self, request, context)
            return try ControlRoutes.reply(["ark_txid": try await state.arkadeSpend(outpoint: spend.outpoint, change: spend.change ?? 0)], status: .created)
        }
        for (path, swept) in [("arkade/sweeps", true), ("arkade/unrolls", false)] {
            control.post(RouterPath(path)) { request, context in
                let target = try await ControlRoutes.body(Spend.self, request, context)
                return try ControlRoutes.reply(Created(try await state.arkadeMark(outpoint: target.outpoint, swept: swept)))
            }
        }
        control.post("arkade/boardings") { request, context in
            let boarding = try await ControlRoutes.body(Boarding.self, request, context)
            return try ControlRoutes.reply(["boarding_txid": try await state.arkadeBoard(wallet: boarding.wallet, amount: boarding.amount ?? 0)],
                                           status: .created)
        }
        control.post("arkade/settlements") { request, context in
            let boarding = try await ControlRoutes.body(Boarding.self, request, context)
            let vtxo = try await state.arkadeSettle(wallet: boarding.wallet, boardingTxid: boarding.boardingTxid ?? "")
            return try ControlRoutes.reply(Created(vtxo), status: .created)
        }
        control.on("arkade/fault", methods: [.put, .post]) { request, context in
            let fault = try await ControlRoutes.body(ArkadeFault.self, request, context)
            await state.setArkadeFault(fault)
            return try ControlRoutes.reply(fault)
        }
        control.delete("arkade/fault") { _, _ in
            await state.setArkadeFault(nil)
            return Response(status: .noContent)
        }
        control.post("arkade/streams/end") { _, _ in
            try ControlRoutes.reply(["ended": await state.finishArkadeStreams()])
        }
    }

    private struct Summary: Encodable {
        var network: String
        var signerPubkey: String
        var wallets: [String: [String: String]]
        var vtxos: Int
        var streams: Int

        private enum CodingKeys: String, CodingKey {
            case network, wallets, vtxos, streams
            case signerPubkey = "signer_pubkey"
        }
    }

    private struct Created: Encodable {
        var outpoint: String
        var script: String
        var amount: Int64

        init(_ vtxo: SimArkVtxo) {
            outpoint = vtxo.outpoint
            script = vtxo.script
            amount = vtxo.amount
        }
    }

    private struct Spend: Decodable {
        var outpoint: String
        var change: Int64?
    }

    private struct Boarding: Decodable {
        var wallet: String
        var amount: Int64?
        var boardingTxid: String?

        private enum CodingKeys: String, CodingKey {
            case wallet, amount
            case boardingTxid = "boarding_txid"
        }
    }
}
