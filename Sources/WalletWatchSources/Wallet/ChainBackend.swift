import WalletWatchBitcoin
import WalletWatchCore

/// What a chain server answers about a wallet's scripts (SPEC.md sections 15 and 21). The
/// wallet model (``WalletSync``) decides which scripts to ask about and turns the answers into
/// a ledger; a backend only answers "what is this script's state, what is its history, give me
/// these transactions", each the cheapest way its server allows: an Esplora explorer
/// (``EsploraBackend``) by stats and pages of transactions, an Electrum server
/// (``ElectrumBackend``) by subscribed statuses, histories and raw transactions.
public protocol ChainBackend: Sendable {
    /// Reads `entries` (watched addresses this pass has not read yet): each one's activity now,
    /// and the transactions of its history the pass must report: those new or changed since
    /// the last pass, and every one still in the mempool (a pass that does not report an
    /// unconfirmed transaction marks it failed). `full` reads whole histories again.
    func read(_ entries: [WalletAddress], full: Bool, now: Instant) async throws -> ChainRead

    /// Finishes the readings of a pass once its window stopped growing. A backend that learns
    /// whether a script is used before it has that script's transactions (an Electrum server's
    /// history lists txids only) reads the transactions of every round here, in as few round
    /// trips as it can; `readings` are every round's, by address.
    func complete(_ readings: [String: ScriptReading], now: Instant) async throws -> ChainRead

    /// Only the activity of each of `entries`, in their order (the balance cache, and what
    /// `asset addresses --deep` looks at past the window).
    func activities(of entries: [WalletAddress]) async throws -> ChainActivities

    /// The chain's tip height, when a pass should store it: on a `full` pass, or whenever the
    /// backend knows it without asking (an Electrum session follows the tip); and the requests
    /// it took.
    func tip(full: Bool) async throws -> (height: Int64?, requests: Int)
}

extension ChainBackend {
    /// Readings complete as they are read (Esplora's come with their transactions).
    public func complete(_ readings: [String: ScriptReading], now: Instant) async throws -> ChainRead {
        ChainRead(readings: Array(readings.values), requests: 0)
    }
}

/// What a backend learnt about one script.
public struct ScriptReading: Sendable {
    /// The address with its new activity, status, first use and sync time.
    public var address: WalletAddress
    /// The part of its history the pass reports.
    public var transactions: [ChainTransaction]

    /// What was read about `address`.
    public init(address: WalletAddress, transactions: [ChainTransaction]) {
        self.address = address
        self.transactions = transactions
    }
}

/// One round of reading: what each script said, what it cost, and what the backend keeps
/// between passes.
public struct ChainRead: Sendable {
    /// One reading an entry, in the entries' order.
    public var readings: [ScriptReading]
    /// Requests made (HTTP requests, or JSON-RPC calls).
    public var requests: Int
    /// Writes the backend waited an answer for (Electrum's batches); nil where not counted.
    public var roundTrips: Int?
    /// Raw transactions, block headers and histories to store with the pass.
    public var records: ChainRecords

    /// A round's outcome.
    public init(readings: [ScriptReading], requests: Int, roundTrips: Int? = nil, records: ChainRecords = ChainRecords()) {
        self.readings = readings
        self.requests = requests
        self.roundTrips = roundTrips
        self.records = records
    }
}

/// The activities of some addresses, and what reading them cost.
public struct ChainActivities: Sendable {
    /// One an entry, in the entries' order.
    public var activities: [AddressActivity]
    /// Requests made.
    public var requests: Int

    /// What was read, at what cost.
    public init(activities: [AddressActivity], requests: Int) {
        self.activities = activities
        self.requests = requests
    }
}

/// What a backend keeps between passes, stored with the pass that learnt it: an Electrum
/// source's raw transactions (to value their outputs when they are spent, and to read a
/// script's history again without fetching them), verified block headers (to date
/// transactions, prove them and notice reorgs), each confirmed transaction's proof, and each
/// script's history as the server last listed it. An Esplora source keeps none of it.
public struct ChainRecords: Sendable {
    /// Raw transactions by txid, each checked against its txid.
    public var transactions: [String: [UInt8]] = [:]
    /// Headers by height, each verified (linked to a checkpoint, its work done).
    public var headers: [Int64: BlockHeader] = [:]
    /// Each changed script's history (by script hex), in the server's order.
    public var histories: [String: [ScriptHistoryEntry]] = [:]
    /// The block each confirmed transaction was proven in (its Merkle branch checked).
    public var proofs: [String: TransactionProof] = [:]
    /// Heights from which stored headers are no longer the chain's (a reorg): forget them.
    public var headersInvalidFrom: Int64?

    /// Nothing to keep.
    public init() {}

    /// Takes in what a later round learnt.
    public mutating func merge(_ other: ChainRecords) {
        transactions.merge(other.transactions) { _, new in new }
        headers.merge(other.headers) { _, new in new }
        histories.merge(other.histories) { _, new in new }
        proofs.merge(other.proofs) { _, new in new }
        if let from = other.headersInvalidFrom { headersInvalidFrom = min(headersInvalidFrom ?? from, from) }
    }

    /// Whether there is nothing to keep.
    public var isEmpty: Bool {
        transactions.isEmpty && headers.isEmpty && histories.isEmpty && proofs.isEmpty && headersInvalidFrom == nil
    }
}

/// Where a confirmed transaction was proven: its block's height and hash (as displayed). The
/// proof holds while the stored header at that height has that hash.
public struct TransactionProof: Sendable, Hashable {
    public var height: Int64
    public var blockHash: String

    /// A transaction proven in the block `blockHash` at `height`.
    public init(height: Int64, blockHash: String) {
        self.height = height
        self.blockHash = blockHash
    }
}

/// One entry of a script's history as an Electrum server lists it: a txid and its height (0 in
/// the mempool with confirmed inputs, -1 with an unconfirmed one).
public struct ScriptHistoryEntry: Sendable, Hashable {
    public var txid: String
    public var height: Int64

    /// An entry.
    public init(txid: String, height: Int64) {
        self.txid = txid
        self.height = height
    }

    /// Whether the transaction is in a block.
    public var isConfirmed: Bool { height > 0 }
}
