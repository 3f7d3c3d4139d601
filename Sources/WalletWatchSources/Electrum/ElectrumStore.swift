/// What earlier passes of an electrum source kept (``ChainRecords``), read when a pass needs
/// it: the engine answers from the database, so the backend never holds a whole wallet's
/// transactions in memory for a pass that changed nothing.
public struct ElectrumStore: Sendable {
    /// The stored history of each of these scripts (by script hex); a script without one is absent.
    public var histories: @Sendable (_ scripts: [String]) async throws -> [String: [ScriptHistoryEntry]]
    /// The stored raw transactions among these txids.
    public var transactions: @Sendable (_ txids: [String]) async throws -> [String: [UInt8]]
    /// The stored headers among these heights.
    public var headers: @Sendable (_ heights: [Int64]) async throws -> [Int64: StoredBlockHeader]
    /// Which of these txids some stored history of a script outside `excluding` still lists.
    public var listedElsewhere: @Sendable (_ txids: [String], _ excluding: Set<String>) async throws -> Set<String>

    /// A store answering through these closures.
    public init(histories: @escaping @Sendable ([String]) async throws -> [String: [ScriptHistoryEntry]],
                transactions: @escaping @Sendable ([String]) async throws -> [String: [UInt8]],
                headers: @escaping @Sendable ([Int64]) async throws -> [Int64: StoredBlockHeader],
                listedElsewhere: @escaping @Sendable ([String], Set<String>) async throws -> Set<String>) {
        self.histories = histories
        self.transactions = transactions
        self.headers = headers
        self.listedElsewhere = listedElsewhere
    }

    /// Nothing stored (a source's first pass, and what the balance cache and `--deep` need).
    public static let empty = ElectrumStore(histories: { _ in [:] }, transactions: { _ in [:] }, headers: { _ in [:] }, listedElsewhere: { _, _ in [] })
}
