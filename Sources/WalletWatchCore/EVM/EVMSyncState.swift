/// Which of an EVM source's assets a figure belongs to: the chain's coin or one token contract.
/// Stored as `native` or the contract's lower-case address.
public enum EVMAssetKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    case native
    case token(EVMAddress)

    public init?(stored text: String) {
        if text == "native" { self = .native } else if let address = EVMAddress(text) { self = .token(address) } else { return nil }
    }

    public var description: String {
        switch self {
        case .native: "native"
        case .token(let contract): contract.lowercased
        }
    }
}

/// What an EVM source last saw of one address and asset, so that the next pass asks for history
/// only where something changed, and only from where it stopped (SPEC.md section 26, "Cost").
public struct EVMPairState: Hashable, Sendable {
    public var address: EVMAddress
    public var asset: EVMAssetKey
    /// The balance at the tip the pass saw.
    public var balance: Int128
    /// The balance at the confirmation depth.
    public var counted: Int128
    /// The address's nonce (native asset only; 0 for tokens).
    public var nonce: Int64
    /// The history of this pair is stored whole, and final, up to this block.
    public var syncedBlock: Int64

    public init(address: EVMAddress, asset: EVMAssetKey, balance: Int128, counted: Int128, nonce: Int64, syncedBlock: Int64) {
        self.address = address
        self.asset = asset
        self.balance = balance
        self.counted = counted
        self.nonce = nonce
        self.syncedBlock = syncedBlock
    }
}

/// A stored transaction of an EVM source still above the confirmation depth, with the block it
/// was last seen in: if a reorganisation removes it, it stays pending until that height is
/// final, and only then becomes failed.
public struct EVMPendingBlock: Hashable, Sendable {
    public var asset: EVMAssetKey
    public var txid: String
    public var block: Int64

    public init(asset: EVMAssetKey, txid: String, block: Int64) {
        self.asset = asset
        self.txid = txid
        self.block = block
    }
}

/// Everything an EVM source's next pass starts from.
public struct EVMSyncState: Sendable {
    /// The tip the last pass saw; nil before the first.
    public var tip: Int64?
    public var pairs: [EVMPairState]
    public var pending: [EVMPendingBlock]

    public init(tip: Int64?, pairs: [EVMPairState], pending: [EVMPendingBlock]) {
        self.tip = tip
        self.pairs = pairs
        self.pending = pending
    }
}
