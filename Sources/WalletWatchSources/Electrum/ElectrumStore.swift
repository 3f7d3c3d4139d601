import WalletWatchBitcoin

/// What earlier passes of an electrum source kept (``ChainRecords``), read when a pass needs
/// it: the engine answers from the database, so the backend never holds a whole wallet's
/// transactions, or a chain of headers, in memory for a pass that changed nothing.
public struct ElectrumStore: Sendable {
    /// The stored history of each of these scripts (by script hex); a script without one is absent.
    public var histories: @Sendable (_ scripts: [String]) async throws -> [String: [ScriptHistoryEntry]]
    /// The stored raw transactions among these txids.
    public var transactions: @Sendable (_ txids: [String]) async throws -> [String: [UInt8]]
    /// The stored verified headers among these heights.
    public var headers: @Sendable (_ heights: [Int64]) async throws -> [Int64: BlockHeader]
    /// The highest stored verified header above `height` (the top of the chain followed past
    /// the last checkpoint), if any.
    public var topHeader: @Sendable (_ above: Int64) async throws -> (height: Int64, header: BlockHeader)?
    /// Which of these txids some stored history of a script outside `excluding` still lists.
    public var listedElsewhere: @Sendable (_ txids: [String], _ excluding: Set<String>) async throws -> Set<String>
    /// The stored proofs among these txids.
    public var proofs: @Sendable (_ txids: [String]) async throws -> [String: TransactionProof]
    /// The highest block a stored history lists a transaction in (nil: none confirmed).
    public var highestConfirmedHeight: @Sendable () async throws -> Int64?
    /// The scripts (hex) whose stored history lists a confirmed transaction without a proof
    /// that holds (none stored, or its block no longer the stored header): a pass proves them
    /// again, reading them from the store.
    public var unprovenScripts: @Sendable () async throws -> Set<String>

    /// A store answering through these closures.
    public init(histories: @escaping @Sendable ([String]) async throws -> [String: [ScriptHistoryEntry]],
                transactions: @escaping @Sendable ([String]) async throws -> [String: [UInt8]],
                headers: @escaping @Sendable ([Int64]) async throws -> [Int64: BlockHeader],
                topHeader: @escaping @Sendable (Int64) async throws -> (height: Int64, header: BlockHeader)?,
                listedElsewhere: @escaping @Sendable ([String], Set<String>) async throws -> Set<String>,
                proofs: @escaping @Sendable ([String]) async throws -> [String: TransactionProof],
                highestConfirmedHeight: @escaping @Sendable () async throws -> Int64?,
                unprovenScripts: @escaping @Sendable () async throws -> Set<String>) {
        self.histories = histories
        self.transactions = transactions
        self.headers = headers
        self.topHeader = topHeader
        self.listedElsewhere = listedElsewhere
        self.proofs = proofs
        self.highestConfirmedHeight = highestConfirmedHeight
        self.unprovenScripts = unprovenScripts
    }

    /// Nothing stored (a source's first pass, and what the balance cache and `--deep` need).
    public static let empty = ElectrumStore(histories: { _ in [:] }, transactions: { _ in [:] }, headers: { _ in [:] }, topHeader: { _ in nil },
                                            listedElsewhere: { _, _ in [] }, proofs: { _ in [:] }, highestConfirmedHeight: { nil },
                                            unprovenScripts: { [] })
}
