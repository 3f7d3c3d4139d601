import Foundation
import WalletWatchBitcoin
import WalletWatchCore

/// Everything `walletwatch.toml` configures, with the defaults of CLI.md filled in and every
/// relative path resolved against the config file's folder.
public struct AppConfig: Sendable, Equatable {
    /// The config file this was read from; nil when walletwatch runs without one (`--db` only).
    public var file: String?
    /// Absolute path of the SQLite database.
    public var database: String
    /// How long `balance` answers from stored balances without asking the sources.
    public var balanceCacheSeconds: Int
    /// IANA time zone for tables, e.g. `Europe/Berlin`; nil means UTC.
    public var timeZone: String?
    public var sources: [SourceConfig]
    public var rates: RatesConfig
    public var http: HTTPConfig
    public var serve: ServeConfig
    public var backup: BackupConfig
    /// The `[[notify]]` webhook targets, in the file's order.
    public var notify: [NotifyConfig]

    public init(file: String?, database: String, balanceCacheSeconds: Int = 300, timeZone: String? = nil,
                sources: [SourceConfig] = [], rates: RatesConfig = RatesConfig(), http: HTTPConfig = HTTPConfig(),
                serve: ServeConfig = ServeConfig(), backup: BackupConfig = BackupConfig(), notify: [NotifyConfig] = []) {
        self.file = file
        self.database = database
        self.balanceCacheSeconds = balanceCacheSeconds
        self.timeZone = timeZone
        self.sources = sources
        self.rates = rates
        self.http = http
        self.serve = serve
        self.backup = backup
        self.notify = notify
    }

    /// The configured source called `name`.
    public func source(named name: String) -> SourceConfig? { sources.first { $0.name == name } }
}

/// One polled endpoint.
public struct SourceConfig: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case barkd, esplora, electrum, evm, fulmine, arkd }

    /// Unique; part of Ark txids (`ark:<name>:<id>`), so it must not be renamed.
    public var name: String
    public var kind: Kind
    /// Base URL, http or https; for electrum `tcp://HOST:PORT` or `ssl://HOST:PORT`.
    public var url: String
    /// Where the bearer token is read from (barkd): a file (absolute path) or an environment variable.
    public var token: SecretReference?
    /// barkd: the asset fed by the Ark balance (created on first ingest, currency BTC).
    public var arkAsset: String?
    /// barkd: the asset fed by the daemon's on-chain wallet; nil when not tracked.
    public var onchainAsset: String?
    /// esplora, electrum, fulmine, arkd: the asset fed by the watched addresses or wallet.
    public var asset: String?
    /// esplora, electrum: the watched addresses (checked against `network`, segwit ones in
    /// lowercase); arkd: the watched Ark addresses, as written.
    public var addresses: [String]
    /// arkd: the VTXO scripts of `addresses` (hex `5120` + taproot key), in the same order.
    public var arkScripts: [String] = []
    /// esplora, electrum, arkd: the network whose addresses (and keys) the source watches.
    public var network: Network
    /// esplora, electrum: the HD wallet of `descriptors` and/or `xpub` (SPEC.md section 15), nil
    /// for a source of fixed addresses only. With `addresses` it is one wallet, one asset.
    public var wallet: HDWallet?
    /// HD wallets: unused receive addresses in a row after which discovery stops.
    public var gapLimit: Int
    /// HD wallets: the same for the change chain.
    public var changeGapLimit: Int
    /// HD wallets: the most addresses one pass adds to the window. A server that calls every
    /// address used would otherwise grow it without end; the next pass goes on from there.
    public var maxAddressesPerPass: Int = SourceConfig.defaultMaxAddressesPerPass
    public var intervalSeconds: Int
    /// electrum: the SHA-256 of the server's own certificate (lowercase hex), pinned: exactly
    /// that certificate is accepted, any other refused (a self-signed node's usual case).
    public var certificateSHA256: String?
    /// The source's own proxy (SPEC.md section 22): nil follows `[http] proxy`, `""` connects
    /// directly, anything else is that proxy's URL.
    public var proxy: String?
    /// evm: the chain, addresses, tokens and history (SPEC.md section 26); nil for other kinds.
    public var evm: EVMSourceConfig?

    /// Whether the source watches on-chain addresses (an Esplora explorer or an Electrum server).
    public var watchesAddresses: Bool { kind == .esplora || kind == .electrum }

    public init(name: String, kind: Kind, url: String, token: SecretReference? = nil, arkAsset: String? = nil,
                onchainAsset: String? = nil, asset: String? = nil, addresses: [String] = [], network: Network = .bitcoin,
                wallet: HDWallet? = nil, gapLimit: Int = SourceConfig.defaultGapLimit, changeGapLimit: Int = SourceConfig.defaultGapLimit,
                intervalSeconds: Int, certificateSHA256: String? = nil, proxy: String? = nil) {
        self.name = name
        self.kind = kind
        self.url = url
        self.token = token
        self.arkAsset = arkAsset
        self.onchainAsset = onchainAsset
        self.asset = asset
        self.addresses = addresses
        self.network = network
        self.wallet = wallet
        self.gapLimit = gapLimit
        self.changeGapLimit = changeGapLimit
        self.intervalSeconds = intervalSeconds
        self.certificateSHA256 = certificateSHA256
        self.proxy = proxy
    }

    /// The host the source connects to.
    public var host: String {
        URL(string: url)?.host ?? ""
    }

    /// BIP44's gap limit, which Electrum, Sparrow and BDK also use.
    public static let defaultGapLimit = 20
    /// `max_addresses_per_pass` unless the config says otherwise: far more than a wallet's
    /// first pass needs (hundreds of used addresses), a few megabytes of memory.
    public static let defaultMaxAddressesPerPass = 10_000
}

/// Where a secret lives. The secret itself is read only when needed and never printed.
public enum SecretReference: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case environment(String)

    public var description: String {
        switch self {
        case .file(let path): "file \(path)"
        case .environment(let name): "environment variable \(name)"
        }
    }
}

/// Where exchange rates come from.
public struct RatesConfig: Sendable, Equatable {
    public enum Provider: String, Sendable, CaseIterable { case coingecko, mempool, `static` }

    public var provider: Provider
    public var url: String
    /// Where coins other than BTC are priced when the provider is mempool (which prices BTC
    /// only): a CoinGecko API, by default the public one.
    public var coingeckoURL: String
    /// Currencies every priced coin is fetched in, besides the display currency and the goals'
    /// money (SPEC.md section 25).
    public var currencies: [Currency]
    /// Rates older than this are refreshed before use (used, marked stale, when that fails).
    public var maxAgeSeconds: Int
    /// For the static provider: `"BTC/USD" = "65000.00"`.
    public var staticRates: [CurrencyPair: Decimal]

    public init(provider: Provider = .coingecko, url: String? = nil, coingeckoURL: String? = nil, currencies: [Currency] = [.usd, .eur],
                maxAgeSeconds: Int = 300, staticRates: [CurrencyPair: Decimal] = [:]) {
        self.provider = provider
        self.url = url ?? RatesConfig.defaultURL(provider)
        self.coingeckoURL = coingeckoURL ?? RatesConfig.defaultURL(.coingecko)
        self.currencies = currencies
        self.maxAgeSeconds = maxAgeSeconds
        self.staticRates = staticRates
    }

    /// The public endpoint of each provider.
    public static func defaultURL(_ provider: Provider) -> String {
        switch provider {
        case .coingecko: "https://api.coingecko.com/api/v3"
        case .mempool: "https://mempool.space/api"
        case .static: ""
        }
    }
}

/// Limits for every HTTP request walletwatch makes.
public struct HTTPConfig: Sendable, Equatable {
    /// Whole-request timeout.
    public var timeoutSeconds: Int
    /// Bodies larger than this are refused while they arrive.
    public var maxResponseBytes: Int
    /// Retries after the first attempt, for connection errors, 429 and 5xx.
    public var retries: Int
    /// At most this many requests to one source at once (an HD wallet's addresses are asked in
    /// parallel); public explorers rate-limit clients that ask for more.
    public var concurrency: Int
    /// `proxy` and `no_proxy`: how connections leave the machine (SPEC.md section 22).
    public var routing: NetworkRouting

    public init(timeoutSeconds: Int = 20, maxResponseBytes: Int = 67_108_864, retries: Int = 3, concurrency: Int = 4,
                routing: NetworkRouting = NetworkRouting()) {
        self.timeoutSeconds = timeoutSeconds
        self.maxResponseBytes = maxResponseBytes
        self.retries = retries
        self.concurrency = concurrency
        self.routing = routing
    }
}

/// The web view.
public struct ServeConfig: Sendable, Equatable {
    /// `host:port` to bind.
    public var listen: String
    /// Bearer token for every route but /healthz; required off loopback.
    public var tokenFile: String?

    public init(listen: String = "127.0.0.1:8477", tokenFile: String? = nil) {
        self.listen = listen
        self.tokenFile = tokenFile
    }
}

/// Backups of the database (`walletwatch backup`, and the daemon's schedule).
public struct BackupConfig: Sendable, Equatable {
    /// Where backups without a path go (absolute); nil means `backups` beside the database.
    public var folder: String?
    /// The daemon makes a backup when the newest in the folder is this many hours old; 0 never.
    public var everyHours: Int
    /// How many backups the folder keeps: the newest ones; older ones are removed.
    public var keep: Int

    public init(folder: String? = nil, everyHours: Int = 0, keep: Int = 7) {
        self.folder = folder
        self.everyHours = everyHours
        self.keep = keep
    }
}
