import WalletWatchCore

/// What a history (an explorer, Otterscan, or logs) says about transactions that touch the
/// watched addresses, before the node's receipts complete it. Each history finds what it can:
/// an explorer lists transactions, internal transfers and token transfers; Otterscan the first
/// two and the logs the third; the node alone only token transfers.
struct EVMHistoryFindings: Sendable {
    /// Top-level transactions by hash (lower-case `0x` hex).
    var transactions: [String: EVMTransactionRecord] = [:]
    /// Value moved by contracts (internal transfers), keyed by transaction hash and position.
    var internals: [EVMEventKey: EVMInternalTransfer] = [:]
    /// ERC-20 Transfer events of the watched tokens.
    var tokenTransfers: [EVMEventKey: EVMTokenTransfer] = [:]
    /// Timestamps the history gave, by block number.
    var blockTimes: [Int64: Int64] = [:]
    /// Contracts of ERC-20 transfers to or from a watched address that are not watched.
    var unlistedTokens: Set<EVMAddress> = []
    /// Explorer requests made.
    var requests = 0

    var hashes: Set<String> {
        Set(transactions.keys).union(internals.values.map(\.hash)).union(tokenTransfers.values.map(\.hash))
    }

    mutating func merge(_ other: EVMHistoryFindings) {
        transactions.merge(other.transactions) { first, _ in first }
        internals.merge(other.internals) { first, _ in first }
        tokenTransfers.merge(other.tokenTransfers) { first, _ in first }
        blockTimes.merge(other.blockTimes) { first, _ in first }
        unlistedTokens.formUnion(other.unlistedTokens)
        requests += other.requests
    }
}

/// Identifies one event within a transaction, so that the same event found through two
/// watched addresses counts once.
struct EVMEventKey: Hashable, Sendable {
    let hash: String
    /// A log's index, a trace's position, or (an explorer without either) the event's contents
    /// and its occurrence among equal ones.
    let position: String
}

/// A top-level transaction.
struct EVMTransactionRecord: Sendable, Equatable {
    let hash: String
    let blockNumber: Int64
    let from: EVMAddress
    /// Nil for a contract creation.
    let to: EVMAddress?
    let value: Int128
}

/// Native coin a contract moved during a transaction.
struct EVMInternalTransfer: Sendable, Equatable {
    let hash: String
    let blockNumber: Int64
    let from: EVMAddress
    let to: EVMAddress
    let value: Int128
}

/// An ERC-20 `Transfer(from, to, value)` event.
struct EVMTokenTransfer: Sendable, Equatable {
    let hash: String
    let blockNumber: Int64
    let contract: EVMAddress
    let from: EVMAddress
    let to: EVMAddress
    let amount: Int128
}

/// What the node's receipt says of a transaction: where it is, whether it succeeded, its fee.
struct EVMReceipt: Sendable, Equatable {
    let hash: String
    let blockNumber: Int64
    let blockHash: String
    let from: EVMAddress
    let to: EVMAddress?
    let succeeded: Bool
    /// gasUsed x effectiveGasPrice, plus `l1Fee` on OP-stack chains.
    let fee: Int128
}

/// The Transfer event's topic: Keccak-256 of `Transfer(address,address,uint256)`.
enum ERC20 {
    static let transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
    /// `balanceOf(address)`.
    static let balanceOf = "0x70a08231"
    /// `decimals()`.
    static let decimals = "0x313ce567"
}
