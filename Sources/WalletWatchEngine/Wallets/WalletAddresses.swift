import Foundation
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSources
import WalletWatchStore

/// An HD wallet's addresses: what `asset addresses` lists (with `--deep`, what lies past the gap
/// limit), and the deposit address `goal address` reserves for a goal (SPEC.md sections 15, 16).
public struct WalletAddresses: Sendable {
    /// One row of `asset addresses`.
    public struct Row: Sendable, Hashable {
        /// The address and what is known about it.
        public let address: WalletAddress
        /// The goal it is reserved for.
        public let reservedFor: String?
        /// Found by `--deep` past the window: the wallet's gap limit does not reach it.
        public let beyondGap: Bool
    }

    /// What `asset addresses` shows.
    public struct Listing: Sendable {
        /// The HD wallet's asset.
        public let asset: Asset
        /// Receive chain, change chain, listed, each by index; `--deep` finds join their chain.
        public let rows: [Row]
        /// One per chain with used addresses past its window, naming the limit that would reach them.
        public let warnings: [String]
        /// HTTP requests `--deep` made.
        public let requests: Int
    }

    /// What `goal address` shows.
    public struct DepositAddress: Sendable, Hashable {
        /// The goal's name.
        public let goal: String
        /// The HD wallet's asset.
        public let asset: String
        /// The reserved receive address.
        public let address: String
        /// Its index on the receive chain.
        public let index: Int
        /// `bitcoin:ADDRESS?label=GOAL` (BIP21), the label percent-encoded.
        public let uri: String
    }

    let database: AppDatabase
    let config: AppConfig
    let clock: WallClock
    let clients: SourceClients

    init(database: AppDatabase, config: AppConfig, clock: WallClock, clients: SourceClients) {
        self.database = database
        self.config = config
        self.clock = clock
        self.clients = clients
    }

    /// The addresses of `assetName`'s wallet as stored by the last ingest; with `deep` > 0, also
    /// the used ones among the next `deep` addresses of each chain, asked about now.
    public func list(asset assetName: String, deep: Int = 0) async throws -> Listing {
        let (asset, source, wallet) = try hdWallet(assetName)
        let stored = try database.walletAddressListing(source: source.name)
        var rows = stored.map { Row(address: $0.address, reservedFor: $0.reservedFor, beyondGap: false) }
        guard deep > 0 else { return Listing(asset: asset, rows: rows, warnings: [], requests: 0) }
        var warnings: [String] = []
        var requests = 0
        let chains = wallet.hasChangeChain ? [HDWallet.Chain.receive, .change] : [.receive]
        let probes = try await clients.withChainBackend(source) { backend in
            let sync = WalletIngest.sync(source, backend: backend)
            var probes: [(chain: HDWallet.Chain, window: [WalletAddress], probed: [WalletAddress])] = []
            for chain in chains {
                let walletChain: WalletChain = chain == .receive ? .receive : .change
                let window = stored.map(\.address).filter { $0.chain == walletChain }
                let end = (window.map(\.index).max() ?? -1) + 1
                let (probed, cost) = try await sync.probe(chain: chain, indexes: UInt32(end)..<UInt32(end + deep))
                requests += cost
                probes.append((chain, window, probed))
            }
            return probes
        }
        for (chain, window, probed) in probes {
            let used = probed.filter(\.activity.isUsed)
            guard !used.isEmpty else { continue }
            rows += used.map { Row(address: $0, reservedFor: nil, beyondGap: true) }
            warnings.append(Self.beyondGapWarning(chain: chain, used: used.map(\.index),
                                                  highestUsed: window.filter(\.activity.isUsed).map(\.index).max() ?? -1, source: source))
        }
        let order: [WalletChain: Int] = [.receive: 0, .change: 1, .listed: 2]
        rows.sort { (order[$0.address.chain]!, $0.address.index) < (order[$1.address.chain]!, $1.address.index) }
        return Listing(asset: asset, rows: rows, warnings: warnings, requests: requests)
    }

    /// The warning about used addresses past a chain's window: which, and the gap limit that
    /// would reach them all (each one at most that far past the used one before it).
    static func beyondGapWarning(chain: HDWallet.Chain, used: [Int], highestUsed: Int, source: SourceConfig) -> String {
        var previous = highestUsed
        var needed = 0
        for index in used.sorted() {
            needed = max(needed, index - previous)
            previous = index
        }
        let key = chain == .receive ? "gap_limit" : "change_gap_limit"
        let limit = chain == .receive ? source.gapLimit : source.changeGapLimit
        let list = used.sorted().map(String.init).joined(separator: ", ")
        let noun = used.count == 1 ? "address" : "addresses"
        return "source '\(source.name)': \(used.count) used \(chain) \(noun) past the window (index \(list)): funds \(key) = \(limit) does not find; \(key) = \(needed) would include \(used.count == 1 ? "it" : "them")"
    }

    /// Reserves the next unused receive address of `assetName`'s wallet for the active goal
    /// `goalName`, or shows the one reserved for it while still unused. A confirmed deposit to it
    /// goes to the goal (Rule 1b).
    public func reserve(goal goalName: String, asset assetName: String) async throws -> DepositAddress {
        let (asset, source, wallet) = try hdWallet(assetName)
        let (goal, address) = try await database.reserveAddress(source: source.name, goalName: goalName, now: clock.now) { index in
            guard index < Int(ExtendedPublicKey.hardenedOffset),
                  let derived = try wallet.derive(chain: .receive, indexes: UInt32(index)..<UInt32(index) + 1).first
            else { throw Refusal("the receive chain of '\(assetName)' has no address at index \(index)") }
            return WalletAddress(chain: .receive, index: Int(derived.index), script: Hex.encode(derived.scriptPubKey), address: derived.address)
        }
        return DepositAddress(goal: goal.name, asset: asset.name, address: address.address, index: address.index,
                              uri: Self.uri(address: address.address, label: goal.name))
    }

    /// A BIP21 URI with the label percent-encoded (RFC 3986: only unreserved characters stay).
    static func uri(address: String, label: String) -> String {
        var unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        unreserved.insert(charactersIn: "-._~")
        return "bitcoin:\(address)?label=" + (label.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
    }

    /// The asset, its source and its HD wallet, or a refusal saying why it has none.
    func hdWallet(_ assetName: String) throws -> (Asset, SourceConfig, HDWallet) {
        let asset = try database.asset(named: assetName)
        guard asset.kind == .addresses, let name = asset.source else {
            throw Refusal("asset '\(asset.name)' is not an HD wallet (it is a \(asset.kind.rawValue) asset); addresses are listed and reserved for esplora and electrum sources with `descriptors` or `xpub`")
        }
        guard let source = config.source(named: name) else {
            throw Refusal("asset '\(asset.name)' comes from source '\(name)', which the config no longer has")
        }
        guard let wallet = source.wallet else {
            throw Refusal("asset '\(asset.name)' watches fixed addresses, not an HD wallet; give source '\(name)' `descriptors` or `xpub` to derive addresses")
        }
        return (asset, source, wallet)
    }
}
