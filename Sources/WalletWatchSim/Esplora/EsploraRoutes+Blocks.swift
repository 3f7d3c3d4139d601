import Hummingbird

extension EsploraRoutes {
    /// The block listings wallets read to place transactions on the chain (BDK's Esplora client
    /// builds its checkpoints from them): `/blocks`, `/blocks/:start_height` (ten blocks down
    /// from the tip or the height) and `/block-height/:height` (the block's hash, plain text).
    func registerBlocks(on esplora: RouterGroup<SimRequestContext>) {
        esplora.on("blocks") { _, context in
            try context.json(await state.blockSummaries(downFrom: await state.chainTip))
        }
        esplora.on("blocks/:height") { _, context in
            let tip = await state.chainTip
            let height = try Self.height(context)
            return try context.json(await state.blockSummaries(downFrom: min(height, tip)))
        }
        esplora.on("block-height/:height") { _, context in
            let height = try Self.height(context)
            guard height <= (await state.chainTip) else { throw Self.error("Block not found", .notFound) }
            return context.text(await state.blockHash(height))
        }
    }

    private static func height(_ context: SimRequestContext) throws -> Int {
        guard let height = Int(context.parameters.get("height") ?? ""), height >= 0 else {
            throw error("Invalid height", .badRequest)
        }
        return height
    }
}

/// One block of `GET /blocks`, with electrs' fields.
struct BlockSummary: Encodable, Sendable {
    var id: String
    var height: Int
    var version = 536_870_912
    var timestamp: Int64
    var txCount = 1
    var size = 285
    var weight = 1140
    var merkleRoot: String
    var previousblockhash: String?
    var mediantime: Int64 { timestamp - 3000 }
    var nonce = 0
    var bits = 386_089_497
    var difficulty = 1

    private enum CodingKeys: String, CodingKey {
        case id, height, version, timestamp, txCount = "tx_count", size, weight, merkleRoot = "merkle_root", previousblockhash
        case mediantime, nonce, bits, difficulty
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(height, forKey: .height)
        try c.encode(version, forKey: .version)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(txCount, forKey: .txCount)
        try c.encode(size, forKey: .size)
        try c.encode(weight, forKey: .weight)
        try c.encode(merkleRoot, forKey: .merkleRoot)
        try c.encodeIfPresent(previousblockhash, forKey: .previousblockhash)
        try c.encode(mediantime, forKey: .mediantime)
        try c.encode(nonce, forKey: .nonce)
        try c.encode(bits, forKey: .bits)
        try c.encode(difficulty, forKey: .difficulty)
    }
}
