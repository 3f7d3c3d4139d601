/// The benchmark's chain, generated: `{"transactions": 2000, "per_block": 20}` adds accounts
/// `bench-alice`, `bench-bob` (the two watched addresses) and `bench-carol` (a counterparty), the
/// tokens USDC (6 decimals), USDT (6) and DAI (18), then one block funding each account with
/// 1,000 ether, one minting 10^30 units of each token to each, and `transactions` transactions,
/// `per_block` a block: each from one account to the next in turn (alice, bob, carol), four in
/// ten native transfers (10^15 + i wei), five token transfers (10^6 + i units of the tokens in
/// turn) and one internal transfer through the forwarder (10^12 + i wei). The same chain as
/// `Tests/Support/evm/selftest.py --bench` builds on the real node, without its signing and
/// execution: 2,000 transactions are built in about a third of a second in a debug build.
public struct EVMGeneratedHistory: Sendable, Codable, Hashable {
    /// How many transactions after the setup blocks.
    public var transactions: Int
    /// Transactions a block.
    public var perBlock: Int

    /// A generated history.
    public init(transactions: Int = 2000, perBlock: Int = 20) {
        self.transactions = transactions
        self.perBlock = perBlock
    }

    private enum CodingKeys: String, CodingKey { case transactions, perBlock = "per_block" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(transactions: try c.decodeIfPresent(Int.self, forKey: .transactions) ?? 2000,
                  perBlock: try c.decodeIfPresent(Int.self, forKey: .perBlock) ?? 20)
    }

    /// The watched accounts' names.
    public static let watched = ["bench-alice", "bench-bob"]
    /// Every account's name.
    static let people = ["bench-alice", "bench-bob", "bench-carol"]
    /// The tokens: symbol, name, decimals.
    static let tokens: [(String, String, Int)] = [("USDC", "USD Coin", 6), ("USDT", "Tether USD", 6), ("DAI", "Dai Stablecoin", 18)]

    /// Adds the generated accounts, tokens and transactions to `scenario`, after its own
    /// transactions (from the block after the last of them).
    func expand(_ scenario: inout EVMScenario) throws {
        guard transactions >= 0, perBlock >= 1 else {
            throw SimulatorError(.invalid, "evm.generated: transactions must be >= 0 and per_block >= 1")
        }
        let taken = Set(scenario.accounts.map(\.name) + scenario.tokens.map(\.symbol) + scenario.contracts.map(\.name))
        for name in Self.people + Self.tokens.map(\.0) where taken.contains(name) {
            throw SimulatorError(.conflict, "evm.generated adds \(name), which the scenario already names")
        }
        scenario.accounts += Self.people.map { EVMAccountSpec(name: $0) }
        scenario.tokens += Self.tokens.map { EVMTokenSpec(symbol: $0.0, name: $0.1, decimals: $0.2, address: .derived("generated token \($0.0)")) }
        var block = Self.lastBlock(of: scenario.transactions) + 1
        var generated: [EVMTransactionSpec] = Self.people.map {
            EVMTransactionSpec(.transfer, to: $0, value: EVMAmount(1_000 * Self.ether), block: block)
        }
        block += 1
        for token in Self.tokens {
            for person in Self.people {
                generated.append(EVMTransactionSpec(.mint, to: person, amount: EVMAmount(Self.mintAmount), token: token.0, block: block))
            }
        }
        block += 1
        generated.reserveCapacity(generated.count + transactions)
        for index in 0..<transactions {
            let sender = Self.people[index % 3], recipient = Self.people[(index + 1) % 3]
            let at = block + index / perBlock
            let i = Int128(index)
            switch index % 10 {
            case 0..<4:
                generated.append(EVMTransactionSpec(.transfer, from: sender, to: recipient, value: EVMAmount(1_000_000_000_000_000 + i), block: at))
            case 4..<9:
                generated.append(EVMTransactionSpec(.tokenTransfer, from: sender, to: recipient, amount: EVMAmount(1_000_000 + i),
                                                    token: Self.tokens[index % 3].0, block: at))
            default:
                generated.append(EVMTransactionSpec(.internal, from: sender, to: recipient, value: EVMAmount(1_000_000_000_000 + i), block: at))
            }
        }
        scenario.transactions += generated
    }

    static let ether: Int128 = 1_000_000_000_000_000_000
    static let mintAmount: Int128 = 1_000_000_000_000_000_000_000_000_000_000

    /// The block of the last transaction of `specs` that is not pending, placing each unplaced one
    /// after its predecessor.
    static func lastBlock(of specs: [EVMTransactionSpec]) -> Int {
        var block = 0
        for spec in specs where !spec.pending { block = spec.block ?? block + 1 }
        return block
    }
}
