import WalletWatchBitcoin

/// An HD wallet whose on-chain history the simulator makes up: a confirmed deposit from the
/// faucet to each listed receive index, and for each listed change index a confirmed spend that
/// pays someone outside and sends its change there. Every transaction is a real one: real
/// scripts, txids that hash its bytes, inputs that spend outputs earlier in the chain (the
/// faucet's coins, the wallet's own). JSON (snake_case, all but `name` and a key optional):
///
/// ```json
/// {"name": "cold", "descriptors": ["wpkh([d34db33f/84h/0h/0h]xpub.../<0;1>/*)"],
///  "network": "bitcoin", "receive": [0, 1, 2, 30], "change": [0, 1], "mempool_receive": [31], "seed": 7}
/// ```
///
/// The deposits and spends alternate (deposit k, then spend k), one block each, ending just below
/// the tip (starting at block 2 at the lowest); each spend uses the wallet's oldest unspent outputs. The control API adds more
/// (`/control/esplora/hd/{name}/deposit` and `/spend`).
public struct HDWalletScenario: Sendable, Codable {
    /// The name the control API knows the wallet by.
    public var name: String
    /// The wallet's descriptors, as a config's `descriptors` takes them.
    public var descriptors: [String]
    /// Or an extended public key (SLIP-132 prefixes pick the script), as a config's `xpub`.
    public var xpub: String?
    /// `bitcoin`, `testnet`, `signet` or `regtest`.
    public var network: String
    /// Receive indexes that get a confirmed deposit, in order.
    public var receive: [Int]
    /// Change indexes that get the change of a confirmed spend, in order.
    public var change: [Int]
    /// Receive indexes that get a deposit still in the mempool.
    public var mempoolReceive: [Int]
    /// The same seed gives the same amounts and txids.
    public var seed: UInt64

    /// A wallet history; everything but the name and the keys is optional.
    public init(name: String, descriptors: [String] = [], xpub: String? = nil, network: String = "bitcoin", receive: [Int] = [],
                change: [Int] = [], mempoolReceive: [Int] = [], seed: UInt64 = 1) {
        self.name = name
        self.descriptors = descriptors
        self.xpub = xpub
        self.network = network
        self.receive = receive
        self.change = change
        self.mempoolReceive = mempoolReceive
        self.seed = seed
    }

    private enum CodingKeys: String, CodingKey {
        case name, descriptors, xpub, network, receive, change, seed, mempoolReceive = "mempool_receive"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            descriptors: try c.decodeIfPresent([String].self, forKey: .descriptors) ?? [],
            xpub: try c.decodeIfPresent(String.self, forKey: .xpub),
            network: try c.decodeIfPresent(String.self, forKey: .network) ?? "bitcoin",
            receive: try c.decodeIfPresent([Int].self, forKey: .receive) ?? [],
            change: try c.decodeIfPresent([Int].self, forKey: .change) ?? [],
            mempoolReceive: try c.decodeIfPresent([Int].self, forKey: .mempoolReceive) ?? [],
            seed: try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 1)
    }

    /// The wallet its keys describe.
    func wallet() throws -> HDWallet {
        guard let network = Network(rawValue: network) else {
            throw SimulatorError(.invalid, "HD wallet \(name): network '\(network)' is not bitcoin, testnet, signet or regtest")
        }
        do {
            return try HDWallet(descriptors: descriptors, xpub: xpub, network: network)
        } catch {
            throw SimulatorError(.invalid, "HD wallet \(name): \(error)")
        }
    }
}
