import WalletWatchCore

/// An `evm` source's own keys (SPEC.md section 26; CLI.md "Additions (SPEC sections 25-28)").
public struct EVMSourceConfig: Sendable, Equatable {
    /// How the history is found.
    public enum History: String, Sendable, Equatable, CaseIterable { case etherscan, otterscan, none }

    /// `chain`'s name (`ethereum`), or nil for a chain given by `chain_id`.
    public var chainName: String?
    public var chainID: Int64
    /// The chain's coin: a currency code, resolved against the database's registry when the
    /// source is used (a chain given by id may name a unit of the user's own).
    public var native: String
    /// Where the JSON-RPC URL comes from when it may hold a key (`url_file`, `url_env`); nil
    /// when `url` holds it. Never printed.
    public var urlSecret: SecretReference?
    public var addresses: [EVMAddress]
    /// The watched tokens, each with the name of its asset.
    public var tokens: [Token]
    public var history: History
    /// The explorer's `/api` (etherscan history only).
    public var historyURL: String?
    /// The explorer's API key: `api_key_file` or `api_key_env`.
    public var apiKey: SecretReference?
    /// nil: the `finalized` block; else a block count.
    public var confirmations: Int?
    /// The native coin's asset.
    public var nativeAsset: String

    /// A watched token and its asset.
    public struct Token: Sendable, Equatable {
        public var contract: EVMAddress
        /// A currency code, resolved when the source is used (it may be a unit of the user's own).
        public var currency: String
        public var asset: String

        public init(contract: EVMAddress, currency: String, asset: String) {
            self.contract = contract
            self.currency = currency
            self.asset = asset
        }
    }

    public init(chainName: String?, chainID: Int64, native: String, urlSecret: SecretReference?, addresses: [EVMAddress], tokens: [Token],
                history: History, historyURL: String?, apiKey: SecretReference?, confirmations: Int?, nativeAsset: String) {
        self.chainName = chainName
        self.chainID = chainID
        self.native = native
        self.urlSecret = urlSecret
        self.addresses = addresses
        self.tokens = tokens
        self.history = history
        self.historyURL = historyURL
        self.apiKey = apiKey
        self.confirmations = confirmations
        self.nativeAsset = nativeAsset
    }

    /// `ethereum (1)`, or `chain 100` for a chain given by id.
    public var chainLabel: String { chainName.map { "\($0) (\(chainID))" } ?? "chain \(chainID)" }

    /// Etherscan's API V2 endpoint, the default `history_url`.
    public static let etherscanURL = "https://api.etherscan.io/v2/api"
}

/// The chains an `evm` source knows by name.
public enum EVMChain: String, Sendable, CaseIterable {
    case ethereum, arbitrum, optimism, base, polygon, bsc

    public var chainID: Int64 {
        switch self {
        case .ethereum: 1
        case .arbitrum: 42161
        case .optimism: 10
        case .base: 8453
        case .polygon: 137
        case .bsc: 56
        }
    }

    /// The coin that pays the chain's fees.
    public var native: String {
        switch self {
        case .ethereum, .arbitrum, .optimism, .base: "ETH"
        case .polygon: "POL"
        case .bsc: "BNB"
        }
    }

    /// Seconds between the daemon's looks at the tip unless `interval_seconds` says otherwise:
    /// a block comes every 12 s on Ethereum, every 2 s or less on the others.
    public var defaultInterval: Int { self == .ethereum ? 12 : 2 }

    /// Whether Etherscan's free API tier serves the chain (BNB Chain, Base and OP Mainnet are
    /// paid-only since 2025).
    public var etherscanFreeTier: Bool { ![.bsc, .base, .optimism].contains(self) }
}
