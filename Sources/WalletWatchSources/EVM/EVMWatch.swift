import WalletWatchCore
import WalletWatchNet

/// What an `evm` source watches and how it learns its history (SPEC.md section 26).
public struct EVMWatch: Sendable {
    /// How the history of the watched addresses is found.
    public enum History: Sendable, Equatable {
        /// An Etherscan API V2 endpoint, or a Blockscout's `/api`.
        case etherscan(url: String, apiKey: BearerToken?)
        /// Erigon's `ots_` namespace on the node itself.
        case otterscan
        /// The node alone: token transfers from its logs, native changes as adjustments.
        case none
    }

    /// When a block counts as final.
    public enum Confirmations: Sendable, Equatable {
        /// The chain's `finalized` block.
        case finalized
        /// A block with this many confirmations (the tip has 1).
        case blocks(Int)
    }

    public var source: String
    public var chainID: Int64
    /// `ethereum (1)`, for messages.
    public var chainName: String
    public var native: Currency
    public var addresses: [EVMAddress]
    public var tokens: [EVMToken]
    public var confirmations: Confirmations
    public var history: History

    public init(source: String, chainID: Int64, chainName: String, native: Currency, addresses: [EVMAddress], tokens: [EVMToken],
                confirmations: Confirmations, history: History) {
        self.source = source
        self.chainID = chainID
        self.chainName = chainName
        self.native = native
        self.addresses = addresses
        self.tokens = tokens
        self.confirmations = confirmations
        self.history = history
    }

    /// The watched assets: the coin, then each token.
    public var assets: [EVMAssetKey] { [.native] + tokens.map { .token($0.contract) } }

    /// The currency of `asset`.
    public func currency(of asset: EVMAssetKey) -> Currency {
        switch asset {
        case .native: native
        case .token(let contract): tokens.first { $0.contract == contract }!.currency
        }
    }

    /// The ledger txid of a transaction hash on this chain.
    public func txid(_ hash: String) -> String { "evm:\(chainID):\(hash)" }
}

/// A watched ERC-20 token.
public struct EVMToken: Sendable, Hashable {
    public var contract: EVMAddress
    public var currency: Currency

    public init(contract: EVMAddress, currency: Currency) {
        self.contract = contract
        self.currency = currency
    }
}
