import Foundation

/// Everything the simulator serves when it starts: barkd wallets, the Esplora chain, prices.
/// Build it in Swift or load it from JSON (snake_case keys, every part optional):
///
/// ```json
/// {
///   "now": "2026-11-21T12:00:00Z",
///   "tip_height": 870000,
///   "long_poll_seconds": 25,
///   "wallets": [{
///     "name": "ark", "token": "demo-token",
///     "balance": {"spendable_sat": 150000},
///     "movements": [{"id": 1, "status": "successful",
///                    "subsystem": {"name": "bark.arkoor", "kind": "receive"},
///                    "effective_balance_sat": 150000,
///                    "time": {"created_at": "2026-11-01T10:00:00Z"}}],
///     "generated_movements": {"count": 100000, "seed": 7}
///   }],
///   "esplora": {
///     "transactions": [{"txid": "<64 hex>", "outputs": [{"address": "bc1q...", "value": 50000}],
///                       "fee": 141, "block_height": 869990}],
///     "generated": [{"address": "bc1q...", "count": 500, "seed": 3}],
///     "hd_wallets": [{"name": "cold", "descriptors": ["wpkh(xpub.../<0;1>/*)"], "receive": [0, 1, 25], "change": [0]}],
///     "payments": [{"address": "bc1q...", "value": 50000, "block_height": 869995}, {"address": "bc1q...", "value": 7000}]
///   },
///   "bitcoin": {"network": "regtest", "rpc_user": "walletwatch", "rpc_password": "walletwatch"},
///   "evm": {"chain_id": 1, "accounts": [{"name": "alice"}], "tokens": [{"symbol": "USDC", "decimals": 6}],
///           "transactions": [{"type": "mint", "token": "USDC", "to": "alice", "amount": 5000000}]},
///   "prices": {"USD": 65000.00, "EUR": 60000.00}
/// }
/// ```
///
/// The chain: `tip_height` blocks (default 870,000), whose transactions are `esplora`'s. HD wallets'
/// histories and `payments` are real transactions: their txids hash their bytes and their inputs
/// spend outputs that exist earlier in the chain (the faucet's coins: every block's coinbase pays
/// the simulator's faucet, see ``Faucet``). A transaction given with a made-up txid,
/// and `generated` histories, cannot be real: Esplora serves them, the Electrum and Core faces do
/// not. With a `bitcoin` section (``BitcoinScenario``) the chain is built as real blocks from the
/// regtest genesis block, with a small tip (default 200), and the Electrum and Core faces serve it.
/// An `evm` section (``EVMScenario``) adds an EVM chain, served by the EVM face.
public struct Scenario: Sendable, Codable {
    /// The simulator's clock starts here and runs in real time; nil = the wall clock.
    public var now: SimTime?
    /// The chain tip Esplora and every wallet without its own tip report: by default 870,000, or
    /// 200 on a real chain (a `bitcoin` section).
    public var tipHeight: Int
    /// How long `notifications/wait` holds a request when nothing is new (barkd: 25 s).
    public var longPollSeconds: Double
    /// The barkd wallets, each under `/barkd/<name>`.
    public var wallets: [WalletScenario]
    /// What Esplora serves.
    public var esplora: EsploraScenario
    /// What the price APIs serve: today's prices, and the price on the reference day of the
    /// daily history (``PriceSeries``) that the history endpoints serve.
    public var prices: PriceTable
    /// When set, the chain is real blocks from the genesis block, also served by the Electrum and
    /// Core faces.
    public var bitcoin: BitcoinScenario?
    /// When set, an EVM chain served by the EVM face (JSON-RPC, Otterscan, Etherscan and
    /// Blockscout APIs; see ``EVMScenario``).
    public var evm: EVMScenario?
    /// What the Fulmine and arkd faces serve at start (``ArkadeScenario``); nil: a Bitcoin
    /// server with no VTXOs, wallets made on first use.
    public var arkade: ArkadeScenario?

    /// A scenario; every part defaults to empty (prices: ``PriceTable/defaultPrices``), the tip to
    /// 870,000 (200 with `bitcoin`).
    public init(
        now: SimTime? = nil, tipHeight: Int? = nil, longPollSeconds: Double = 25, wallets: [WalletScenario] = [],
        esplora: EsploraScenario = EsploraScenario(), prices: PriceTable = PriceTable(), bitcoin: BitcoinScenario? = nil,
        evm: EVMScenario? = nil,
        arkade: ArkadeScenario? = nil
    ) {
        self.arkade = arkade
        self.now = now
        self.tipHeight = tipHeight ?? (bitcoin == nil ? 870_000 : BitcoinScenario.defaultTipHeight)
        self.longPollSeconds = longPollSeconds
        self.wallets = wallets
        self.esplora = esplora
        self.prices = prices
        self.bitcoin = bitcoin
        self.evm = evm
    }

    /// The instant generated data is anchored to: `now`, else 2026-11-21T12:00:00Z, so that
    /// generated histories are identical from run to run.
    public var referenceTime: SimTime { now ?? Scenario.defaultReferenceTime }

    static let defaultReferenceTime = SimTime(unixSeconds: 1_795_262_400)

    /// Reads a scenario from a JSON file.
    public static func load(from path: String) throws -> Scenario {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SimulatorError(.invalid, "cannot read scenario \(path): \(error.localizedDescription)")
        }
        return try decode(data, source: path)
    }

    /// Reads a scenario from JSON bytes; the error says where the JSON is wrong.
    public static func decode(_ data: Data, source: String = "scenario") throws -> Scenario {
        do {
            return try JSONDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw SimulatorError(.invalid, "\(source): \(SimulatorError.describe(error))")
        }
    }

    /// The scenario as pretty JSON (for writing a file that `walletwatch-sim` can load).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    private enum CodingKeys: String, CodingKey {
        case now, wallets, esplora, prices, bitcoin, evm, arkade
        case tipHeight = "tip_height", longPollSeconds = "long_poll_seconds"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            now: try c.decodeIfPresent(SimTime.self, forKey: .now),
            tipHeight: try c.decodeIfPresent(Int.self, forKey: .tipHeight),
            longPollSeconds: try c.decodeIfPresent(Double.self, forKey: .longPollSeconds) ?? 25,
            wallets: try c.decodeIfPresent([WalletScenario].self, forKey: .wallets) ?? [],
            esplora: try c.decodeIfPresent(EsploraScenario.self, forKey: .esplora) ?? EsploraScenario(),
            prices: try c.decodeIfPresent(PriceTable.self, forKey: .prices) ?? PriceTable(),
            bitcoin: try c.decodeIfPresent(BitcoinScenario.self, forKey: .bitcoin),
            evm: try c.decodeIfPresent(EVMScenario.self, forKey: .evm),
            arkade: try c.decodeIfPresent(ArkadeScenario.self, forKey: .arkade))
    }
}

/// One barkd daemon with its Ark wallet, served under `/barkd/<name>/`.
public struct WalletScenario: Sendable, Codable {
    /// The wallet's name in URLs: letters, digits, `-`, `_`, `.`.
    public var name: String
    /// When set, every API request needs `Authorization: Bearer <token>`.
    public var token: String?
    /// nil = derived from the movements, and kept up to date as movements are added or
    /// updated (successful ones count; pending ones fill the pending figures).
    public var balance: BarkdBalance?
    /// nil = derived from the on-chain transactions (confirmed ones count; unconfirmed
    /// incoming ones are untrusted pending), also kept up to date.
    public var onchainBalance: BarkdOnchainBalance?
    /// nil = the scenario's chain tip.
    public var tipHeight: Int?
    /// Movements in any order; the history serves them newest (highest id) first.
    public var movements: [BarkdMovement]
    /// Generated movements (ids 1...count) under the explicit ones.
    public var generatedMovements: GeneratedMovements?
    /// Oldest first, as barkd lists them.
    public var onchainTransactions: [BarkdWalletTx]
    /// The wallet's VTXOs; spent ones appear only with `?all=true`.
    public var vtxos: [BarkdVtxo]
    /// The on-chain wallet's unspent outputs.
    public var utxos: [BarkdUtxo]
    /// The Ark server's parameters (`wallet/ark-info`).
    public var arkInfo: BarkdArkInfo

    /// A wallet; everything but the name is optional.
    public init(
        name: String, token: String? = nil, balance: BarkdBalance? = nil, onchainBalance: BarkdOnchainBalance? = nil,
        tipHeight: Int? = nil, movements: [BarkdMovement] = [], generatedMovements: GeneratedMovements? = nil,
        onchainTransactions: [BarkdWalletTx] = [], vtxos: [BarkdVtxo] = [], utxos: [BarkdUtxo] = [],
        arkInfo: BarkdArkInfo = BarkdArkInfo()
    ) {
        self.name = name
        self.token = token
        self.balance = balance
        self.onchainBalance = onchainBalance
        self.tipHeight = tipHeight
        self.movements = movements
        self.generatedMovements = generatedMovements
        self.onchainTransactions = onchainTransactions
        self.vtxos = vtxos
        self.utxos = utxos
        self.arkInfo = arkInfo
    }

    private enum CodingKeys: String, CodingKey {
        case name, token, balance, movements, vtxos, utxos
        case onchainBalance = "onchain_balance", tipHeight = "tip_height", generatedMovements = "generated_movements"
        case onchainTransactions = "onchain_transactions", arkInfo = "ark_info"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            token: try c.decodeIfPresent(String.self, forKey: .token),
            balance: try c.decodeIfPresent(BarkdBalance.self, forKey: .balance),
            onchainBalance: try c.decodeIfPresent(BarkdOnchainBalance.self, forKey: .onchainBalance),
            tipHeight: try c.decodeIfPresent(Int.self, forKey: .tipHeight),
            movements: try c.decodeIfPresent([BarkdMovement].self, forKey: .movements) ?? [],
            generatedMovements: try c.decodeIfPresent(GeneratedMovements.self, forKey: .generatedMovements),
            onchainTransactions: try c.decodeIfPresent([BarkdWalletTx].self, forKey: .onchainTransactions) ?? [],
            vtxos: try c.decodeIfPresent([BarkdVtxo].self, forKey: .vtxos) ?? [],
            utxos: try c.decodeIfPresent([BarkdUtxo].self, forKey: .utxos) ?? [],
            arkInfo: try c.decodeIfPresent(BarkdArkInfo.self, forKey: .arkInfo) ?? BarkdArkInfo())
    }
}

/// The chain's content, added in this order: generated address histories, stored transactions,
/// HD wallets, real payments.
public struct EsploraScenario: Sendable, Codable {
    /// Stored transactions, confirmed or in the mempool (made-up txids: Esplora only).
    public var transactions: [EsploraTxSpec]
    /// Generated histories, at most one per address (Esplora only).
    public var generated: [GeneratedAddressHistory]
    /// HD wallets whose histories are real transactions, each with its own name.
    public var hdWallets: [HDWalletScenario]
    /// Real payments from the faucet to any address.
    public var payments: [PaymentScenario]

    /// Chain content; every part defaults to empty.
    public init(transactions: [EsploraTxSpec] = [], generated: [GeneratedAddressHistory] = [], hdWallets: [HDWalletScenario] = [],
                payments: [PaymentScenario] = []) {
        self.transactions = transactions
        self.generated = generated
        self.hdWallets = hdWallets
        self.payments = payments
    }

    private enum CodingKeys: String, CodingKey { case transactions, generated, payments, hdWallets = "hd_wallets" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(transactions: try c.decodeIfPresent([EsploraTxSpec].self, forKey: .transactions) ?? [],
                  generated: try c.decodeIfPresent([GeneratedAddressHistory].self, forKey: .generated) ?? [],
                  hdWallets: try c.decodeIfPresent([HDWalletScenario].self, forKey: .hdWallets) ?? [],
                  payments: try c.decodeIfPresent([PaymentScenario].self, forKey: .payments) ?? [])
    }
}
