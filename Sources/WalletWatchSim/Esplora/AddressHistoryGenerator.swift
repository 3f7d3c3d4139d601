/// Asks the simulator to generate `count` confirmed transactions for an Esplora address,
/// spread over about a year of blocks below the tip; the same for the same seed every run.
public struct GeneratedAddressHistory: Sendable, Hashable, Codable {
    /// The address the history belongs to.
    public var address: String
    /// How many transactions.
    public var count: Int
    /// The seed: the same seed gives the same data.
    public var seed: UInt64

    /// A request for `count` generated transactions of `address`.
    public init(address: String, count: Int, seed: UInt64 = 1) {
        self.address = address
        self.count = count
        self.seed = seed
    }

    private enum CodingKeys: String, CodingKey { case address, count, seed }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(address: try c.decode(String.self, forKey: .address), count: try c.decode(Int.self, forKey: .count),
                  seed: try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 1)
    }
}

/// Makes transaction `j` (0 is the oldest) of a generated address history on demand. Two of
/// every three transactions pay the address; the third spends the previous one's output, so
/// spent never exceeds funded. The txid carries `j` in its last 16 hex digits (masked), which
/// lets `/address/:a/txs/chain/:last_seen_txid` find its place without an index.
struct AddressHistoryGenerator: Sendable {
    let address: String
    let count: Int
    let seed: UInt64
    /// The chain tip when the scenario was loaded: every transaction is below it.
    let baseTip: Int
    let chainTime: ChainTime
    private let mask: UInt64
    private let salt: UInt64
    /// chain_stats of the whole generated history, computed once.
    let stats: AddressStats

    /// Blocks in a year: the history is spread over this many blocks below the tip.
    static let spreadBlocks: Int64 = 52_560

    init(_ request: GeneratedAddressHistory, baseTip: Int, chainTime: ChainTime) {
        address = request.address
        count = max(0, request.count)
        seed = request.seed
        self.baseTip = baseTip
        self.chainTime = chainTime
        salt = Fingerprint.of(request.address)
        mask = DeterministicRandom.mix(request.seed ^ salt)
        var stats = AddressStats()
        for j in 0..<count {
            stats.txCount += 1
            if Self.isSpend(j) {
                stats.spentCount += 1
                stats.spentSum += Self.receivedAmount(seed: request.seed, salt: salt, j - 1)
            } else {
                stats.fundedCount += 1
                stats.fundedSum += Self.receivedAmount(seed: request.seed, salt: salt, j)
            }
        }
        self.stats = stats
    }

    static func isSpend(_ j: Int) -> Bool { j % 3 == 2 }

    static func receivedAmount(seed: UInt64, salt: UInt64, _ j: Int) -> Int64 {
        var random = DeterministicRandom(seed: seed, index: UInt64(j), salt: salt)
        return random.logAmount(5_000, 50_000_000)
    }

    /// Block height of transaction `j`: non-decreasing in `j`, all below the base tip.
    func height(_ j: Int) -> Int {
        let back = Int64(count - 1 - j) * Self.spreadBlocks / Int64(max(1, count))
        return max(1, baseTip - 1 - Int(back))
    }

    /// The ordering key of transaction `j` among the address's confirmed transactions.
    func key(_ j: Int) -> ConfirmedKey { ConfirmedKey(height: height(j), order: Int64(j)) }

    func txid(_ j: Int) -> String {
        var random = DeterministicRandom(seed: seed, index: UInt64(j), salt: salt &+ 1)
        var tail = UInt64(j) ^ mask
        let hex = Array("0123456789abcdef")
        var digits: [Character] = []
        for _ in 0..<16 {
            digits.append(hex[Int(tail & 15)])
            tail >>= 4
        }
        return random.hex(48) + String(digits.reversed())
    }

    /// The index of a generated txid of this history, or nil.
    func index(of txid: String) -> Int? {
        guard txid.count == 64, let tail = UInt64(txid.suffix(16), radix: 16) else { return nil }
        let j = tail ^ mask
        guard j < UInt64(count), self.txid(Int(j)) == txid else { return nil }
        return Int(j)
    }

    /// How many transactions sort before `key` (all of them when nil): 0..<result are older.
    func countBefore(_ key: ConfirmedKey?) -> Int {
        guard let key else { return count }
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if self.key(mid) < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func transaction(_ j: Int) -> EsploraTxSpec {
        var random = DeterministicRandom(seed: seed, index: UInt64(j), salt: salt &+ 2)
        let fee = random.int(in: 150...3_000)
        let height = height(j)
        if Self.isSpend(j) {
            let spent = Self.receivedAmount(seed: seed, salt: salt, j - 1)
            let paid = max(546, spent - fee)
            return EsploraTxSpec(
                txid: txid(j), inputs: [EsploraTxIO(address: address, value: spent, txid: txid(j - 1), vout: 0)],
                outputs: [EsploraTxIO(address: "bc1q" + random.bech32(38), value: paid)],
                fee: spent - paid, blockHeight: height, blockTime: chainTime.time(ofHeight: height))
        }
        let amount = Self.receivedAmount(seed: seed, salt: salt, j)
        let change = random.logAmount(10_000, 20_000_000)
        return EsploraTxSpec(
            txid: txid(j), inputs: [EsploraTxIO(address: "bc1q" + random.bech32(38), value: amount + change + fee)],
            outputs: [EsploraTxIO(address: address, value: amount), EsploraTxIO(address: "bc1q" + random.bech32(38), value: change)],
            fee: fee, blockHeight: height, blockTime: chainTime.time(ofHeight: height))
    }
}

/// Where a confirmed transaction sorts in an address history: by block height, then by the
/// order it was added (later first within a block, as Esplora lists them).
struct ConfirmedKey: Comparable, Hashable, Sendable {
    let height: Int
    let order: Int64

    static func < (lhs: ConfirmedKey, rhs: ConfirmedKey) -> Bool {
        (lhs.height, lhs.order) < (rhs.height, rhs.order)
    }
}

/// Esplora's `chain_stats` / `mempool_stats` for one address.
struct AddressStats: Sendable, Hashable, Encodable {
    var fundedCount = 0
    var fundedSum: Int64 = 0
    var spentCount = 0
    var spentSum: Int64 = 0
    var txCount = 0

    mutating func add(_ tx: EsploraTxSpec, for address: String) {
        let funded = tx.outputs.filter { $0.address == address }
        let spent = tx.inputs.filter { $0.address == address }
        guard !funded.isEmpty || !spent.isEmpty else { return }
        fundedCount += funded.count
        fundedSum += funded.reduce(0) { $0 + $1.value }
        spentCount += spent.count
        spentSum += spent.reduce(0) { $0 + $1.value }
        txCount += 1
    }

    static func + (lhs: AddressStats, rhs: AddressStats) -> AddressStats {
        AddressStats(fundedCount: lhs.fundedCount + rhs.fundedCount, fundedSum: lhs.fundedSum + rhs.fundedSum,
                     spentCount: lhs.spentCount + rhs.spentCount, spentSum: lhs.spentSum + rhs.spentSum,
                     txCount: lhs.txCount + rhs.txCount)
    }

    private enum CodingKeys: String, CodingKey {
        case fundedCount = "funded_txo_count", fundedSum = "funded_txo_sum", spentCount = "spent_txo_count"
        case spentSum = "spent_txo_sum", txCount = "tx_count"
    }
}

/// The simulated chain's clock: block `height` was mined `(anchorHeight - height) * 10 min`
/// before `anchorTime`.
struct ChainTime: Sendable, Hashable {
    let anchorHeight: Int
    let anchorTime: SimTime

    func time(ofHeight height: Int) -> Int64 {
        anchorTime.unixSeconds - Int64(anchorHeight - height) * 600
    }
}
