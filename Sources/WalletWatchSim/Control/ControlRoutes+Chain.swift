import Foundation
import Hummingbird

extension ControlRoutes {
    /// The chain's routes: its summary, real payments, mining, replacements and reorgs (see the
    /// table on ``ControlRoutes``).
    func registerChain(on chain: RouterGroup<SimRequestContext>) {
        chain.post("payments") { request, context in
            try Self.reply(try await state.pay(try await Self.body(PaymentScenario.self, request, context)), status: .created)
        }
        chain.post("mine") { request, context in
            let body = try await Self.optionalBody(MineBody.self, request, context) ?? MineBody()
            let mined = try await state.mine(blocks: body.blocks ?? 1)
            return try Self.reply(MineReply(tipHeight: await state.chainTip, mined: mined))
        }
        chain.post("transactions/:txid/replace") { request, context in
            let body = try await Self.optionalBody(ReplaceBody.self, request, context) ?? ReplaceBody()
            let (replacement, evicted) = try await state.replace(try context.parameters.require("txid"), fee: body.fee, outputs: body.outputs)
            return try Self.reply(ReplaceReply(replacement: replacement, evicted: evicted), status: .created)
        }
        chain.post("reorg") { request, context in
            let body = try await Self.body(ReorgBody.self, request, context)
            return try Self.reply(try await state.reorg(depth: body.depth, blocks: body.blocks, transactions: body.transactions ?? .mempool))
        }
    }

    /// The request's JSON body as a `T`, or nil when it has none.
    static func optionalBody<T: Decodable>(_ type: T.Type, _ request: Request, _ context: SimRequestContext) async throws -> T? {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        guard body.readableBytes > 0 else { return nil }
        return try JSONDecoder().decode(type, from: Data(body.readableBytesView))
    }
}

/// `{"blocks": N}`: how many blocks `POST /control/chain/mine` makes (default 1).
struct MineBody: Codable, Sendable {
    var blocks: Int?
}

/// What `POST /control/chain/mine` answers.
struct MineReply: Encodable, Sendable {
    var tipHeight: Int
    var mined: [String]
    private enum CodingKeys: String, CodingKey { case tipHeight = "tip_height", mined }
}

/// `{"fee": sats, "outputs": [{"address", "value"}]}`, both optional: a replacement's terms.
struct ReplaceBody: Codable, Sendable {
    var fee: Int64?
    var outputs: [EsploraTxIO]?
}

/// What `POST /control/chain/transactions/{txid}/replace` answers.
struct ReplaceReply: Encodable, Sendable {
    var replacement: EsploraTxSpec
    var evicted: [String]
}

/// `{"depth": N, "blocks": M, "transactions": "mempool"|"drop"|"mine"}`: a reorg.
struct ReorgBody: Codable, Sendable {
    var depth: Int
    var blocks: Int?
    var transactions: ReorgDisposition?
}
