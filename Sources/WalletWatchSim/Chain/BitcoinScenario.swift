import WalletWatchBitcoin

/// A scenario's `bitcoin` section: the chain is real, built block by block from the genesis block
/// of `network` (each block with a coinbase paying the faucet, the transactions mined at its height,
/// a correct merkle root and a header linked to the one before), and besides Esplora it is served
/// by the Electrum face (TCP and TLS) and the Bitcoin Core JSON-RPC face (`/bitcoind/`, for a real
/// Electrum server to index). Such a chain keeps a small tip (default 200, at most 20,000).
///
/// ```json
/// "bitcoin": {"network": "regtest", "rpc_user": "walletwatch", "rpc_password": "walletwatch"}
/// ```
public struct BitcoinScenario: Sendable, Codable, Hashable {
    /// The chain's network: `regtest` (the genesis block ElectrumX's `NET=regtest` expects).
    public var network: String
    /// The Core face's basic-auth user.
    public var rpcUser: String
    /// The Core face's basic-auth password.
    public var rpcPassword: String

    /// A real chain on `network`, its Core face guarded by `rpcUser`:`rpcPassword`.
    public init(network: String = "regtest", rpcUser: String = "walletwatch", rpcPassword: String = "walletwatch") {
        self.network = network
        self.rpcUser = rpcUser
        self.rpcPassword = rpcPassword
    }

    /// A real chain's tip when the scenario names none.
    public static let defaultTipHeight = 200

    private enum CodingKeys: String, CodingKey { case network, rpcUser = "rpc_user", rpcPassword = "rpc_password" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(network: try c.decodeIfPresent(String.self, forKey: .network) ?? "regtest",
                  rpcUser: try c.decodeIfPresent(String.self, forKey: .rpcUser) ?? "walletwatch",
                  rpcPassword: try c.decodeIfPresent(String.self, forKey: .rpcPassword) ?? "walletwatch")
    }

    /// The network, when it is one a real chain can be built for.
    func chainNetwork() throws -> Network {
        guard network == Network.regtest.rawValue else {
            throw SimulatorError(.invalid, "bitcoin.network must be regtest (a real chain starts at regtest's genesis block), not \(network)")
        }
        return .regtest
    }
}

/// A real payment from the simulator's faucet to any address (plain addresses of any network,
/// HD wallets' too), mined at `block_height` or left in the mempool:
/// `{"address": "bcrt1q...", "value": 50000, "block_height": 150, "fee": 200}` (`fee` optional,
/// about 1 sat/vB by default). The Electrum and Core faces serve it, unlike a made-up transaction.
public struct PaymentScenario: Sendable, Codable, Hashable {
    /// The address paid.
    public var address: String
    /// Sats.
    public var value: Int64
    /// The block it is mined in; nil: the mempool.
    public var blockHeight: Int?
    /// Sats; nil: about 1 sat/vB.
    public var fee: Int64?

    /// A payment of `value` sats to `address`.
    public init(address: String, value: Int64, blockHeight: Int? = nil, fee: Int64? = nil) {
        self.address = address
        self.value = value
        self.blockHeight = blockHeight
        self.fee = fee
    }

    private enum CodingKeys: String, CodingKey { case address, value, fee, blockHeight = "block_height" }
}
