import Crypto
import WalletWatchBitcoin
import WalletWatchCore

/// The Electrum protocol's methods walletwatch uses, typed, over one connection (SPEC.md
/// section 21). Lists of calls go in batches of at most ``batchSize`` calls, one write each
/// (several lines, answered by id), at most ``maxBatchesInFlight`` of them waiting at once.
/// Every answer is checked: a raw transaction must hash to the txid asked for, a header must be
/// 80 bytes, a history's entries must be txids and heights, a status must be one.
public struct ElectrumClient: Sendable {
    /// Calls in one write at most (Fulcrum answers batches of up to 345 by default).
    public static let batchSize = 300
    /// Writes waiting for their answers at once, at most.
    public static let maxBatchesInFlight = 2
    /// The protocol versions walletwatch speaks: 1.7 removes the scripthash methods.
    public static let protocolRange = (min: "1.4", max: "1.6")

    /// The connection the calls go over.
    public let connection: ElectrumConnection

    /// A client over `connection`.
    public init(connection: ElectrumConnection) {
        self.connection = connection
    }

    /// What `server.version` agreed on.
    public struct ServerVersion: Sendable, Hashable {
        /// The server's software, as it names itself ("ElectrumX 1.18.0", "Fulcrum 1.11.1").
        public let software: String
        /// The protocol version it will speak.
        public let protocolVersion: String
    }

    // MARK: - Calls

    /// `server.version` (which must be the first message: it asks for 1.4 to 1.6 and refuses an
    /// answer outside them), `blockchain.headers.subscribe` and `server.features` in one write,
    /// the version's line first: servers answer the version before anything else (ElectrumX
    /// waits for it, electrs and Fulcrum answer in order), so a session costs one round trip to
    /// open. The features' `genesis_hash` names the chain the server follows.
    public func negotiateAndSubscribeHeaders(clientName: String) async throws
        -> (version: ServerVersion, tip: (height: Int64, header: BlockHeader), genesisHash: String) {
        let replies = try await connection.call([versionCall(clientName), ElectrumCall("blockchain.headers.subscribe"), ElectrumCall("server.features")])
        let version = try version(from: replies[0])
        let tip = try decode(try result(of: replies[1], "blockchain.headers.subscribe"), "blockchain.headers.subscribe") { try Self.tip(&$0) }
        let genesis = try decode(try result(of: replies[2], "server.features"), "server.features") { try Self.genesisHash(&$0) }
        return (version, tip, genesis)
    }

    /// `server.features`' `genesis_hash`: 64 hex digits (every server of protocol 1.4 sends it).
    static func genesisHash(_ reader: inout JSONReader) throws -> String {
        var genesis: String?
        try reader.readObject { reader, key in
            if key.is("genesis_hash") { genesis = try reader.readString() } else { try reader.skipValue() }
        }
        guard let genesis else { throw reader.missing("genesis_hash") }
        guard genesis.utf8.count == 64, Hex.decode(genesis) != nil else {
            throw reader.error("a genesis hash is 64 hexadecimal digits, not \(JSONReader.shown(genesis))")
        }
        return genesis.lowercased()
    }

    private func versionCall(_ clientName: String) -> ElectrumCall {
        ElectrumCall("server.version", [.string(clientName), .strings([Self.protocolRange.min, Self.protocolRange.max])])
    }

    private func version(from reply: ElectrumReply) throws -> ServerVersion {
        let method = "server.version"
        let parts = try decode(try result(of: reply, method), method) { reader -> [String] in
            var parts: [String] = []
            try reader.readArray { reader, _ in parts.append(try reader.readString()) }
            return parts
        }
        guard parts.count == 2 else { throw connection.problem("expected [software, protocol version], got \(parts.count) strings", method: method) }
        let version = ServerVersion(software: ElectrumMessage.oneLine(parts[0]), protocolVersion: ElectrumMessage.oneLine(parts[1]))
        guard Self.isSupported(parts[1]) else {
            throw connection.problem(
                "the server (\(version.software)) speaks protocol version \(version.protocolVersion); walletwatch speaks \(Self.protocolRange.min) to \(Self.protocolRange.max)",
                method: method)
        }
        return version
    }

    /// Whether `version` ("1.4", "1.4.2", "1.6") is within 1.4 to 1.6. Each part is plain
    /// decimal digits without a leading zero, as the protocol writes versions: "+1.04" or
    /// "1.04" is not a version (Swift's Int would read both as 1.4).
    static func isSupported(_ version: String) -> Bool {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.count <= 3,
              parts.allSatisfy({ part in !part.isEmpty && part.utf8.allSatisfy { $0 &- 48 < 10 } && (part == "0" || !part.hasPrefix("0")) })
        else { return false }
        return parts[0] == "1" && ["4", "5", "6"].contains(parts[1])
    }

    /// `server.ping`: keeps an idle connection open (servers drop sessions idle for 10 minutes).
    public func ping() async throws {
        _ = try await one(ElectrumCall("server.ping"))
    }

    /// A tip as `blockchain.headers.subscribe` answers and notifies it: `{"height", "hex"}`.
    static func tip(_ reader: inout JSONReader) throws -> (height: Int64, header: BlockHeader) {
        var height: Int64?
        var hex: String?
        try reader.readObject { reader, key in
            if key.is("height") { height = try reader.readNonNegativeInt64() }
            else if key.is("hex") { hex = try reader.readString() }
            else { try reader.skipValue() }
        }
        guard let height else { throw reader.missing("height") }
        guard let hex else { throw reader.missing("hex") }
        return (height, try header(hex, reader))
    }

    /// A status (`blockchain.scripthash.subscribe`'s answer, sent through the session, which
    /// must know what was subscribed): 64 hex digits, or null.
    static func status(_ reader: inout JSONReader) throws -> String? {
        guard let status = try reader.readOptionalString() else { return nil }
        guard status.utf8.count == 64, Hex.decode(status) != nil else {
            throw reader.error("a status is 64 hexadecimal digits, not \(JSONReader.shown(status))")
        }
        return status.lowercased()
    }

    /// `blockchain.scripthash.get_history` for each script, in the server's order.
    public func histories(_ scripthashes: [String]) async throws -> [[ScriptHistoryEntry]] {
        try await each(scripthashes.map { ElectrumCall("blockchain.scripthash.get_history", [.string($0)]) }) { reader in
            try Self.history(&reader)
        }
    }

    /// A history as `get_history` answers it: `[{"tx_hash", "height", "fee"?}]`.
    static func history(_ reader: inout JSONReader) throws -> [ScriptHistoryEntry] {
        var entries: [ScriptHistoryEntry] = []
        try reader.readArray { reader, _ in
            var txid: String?
            var height: Int64?
            try reader.readObject { reader, key in
                if key.is("tx_hash") { txid = try reader.readTxid() }
                else if key.is("height") { height = try reader.readInt64() }
                else { try reader.skipValue() }
            }
            guard let txid else { throw reader.missing("tx_hash") }
            guard let height else { throw reader.missing("height") }
            guard height >= -1 else { throw reader.error("a height of \(height) is below -1") }
            entries.append(ScriptHistoryEntry(txid: txid, height: height))
        }
        return entries
    }

    /// `blockchain.transaction.get` for each txid (raw): each parsed, and refused unless it
    /// hashes to the txid asked for.
    public func transactions(_ txids: [String]) async throws -> [(transaction: RawTransaction, raw: [UInt8])] {
        let method = "blockchain.transaction.get"
        let raws = try await each(txids.map { ElectrumCall(method, [.string($0)]) }) { try $0.readString() }
        return try zip(txids, raws).map { txid, hex in
            let transaction: RawTransaction
            let bytes: [UInt8]
            do {
                // Hex is two characters a byte: a longer string cannot be a transaction a block holds.
                guard hex.utf8.count <= 2 * RawTransaction.maximumWeight else { throw TransactionRefusal("is larger than \(RawTransaction.maximumWeight) bytes") }
                guard let decoded = Hex.decode(hex) else { throw TransactionRefusal("is not hex") }
                bytes = decoded
                transaction = try RawTransaction.bounded(bytes)
            } catch {
                throw connection.problem("the transaction sent for \(txid) \(error)", method: method)
            }
            guard let hash = transaction.txid, hash == txid else {
                throw connection.problem("the transaction sent for \(txid) hashes to \(transaction.txid ?? "nothing"): not the transaction asked for", method: method)
            }
            return (transaction, bytes)
        }
    }

    /// `blockchain.block.header` for each height: 80 bytes each, or refused.
    public func headers(_ heights: [Int64]) async throws -> [BlockHeader] {
        try await each(heights.map { ElectrumCall("blockchain.block.header", [.integer($0)]) }) { reader in
            try Self.header(try reader.readString(), reader)
        }
    }

    /// `blockchain.block.headers` for each `(start, count)` (count at most 2016): each answer's
    /// headers, 80 bytes each, in order; an answer with fewer than asked is refused. One call a
    /// write (an answer is up to 330 kB, and a batch's answers come on one line), at most
    /// ``maxBatchesInFlight`` waiting at once.
    public func headerRuns(_ runs: [(start: Int64, count: Int)]) async throws -> [[BlockHeader]] {
        let method = "blockchain.block.headers"
        var results = [[BlockHeader]?](repeating: nil, count: runs.count)
        try await withThrowingTaskGroup(of: (Int, [BlockHeader]).self) { group in
            var next = 0
            func start() {
                let (index, run) = (next, runs[next])
                group.addTask {
                    let reply = try await connection.call([ElectrumCall(method, [.integer(run.start), .integer(Int64(run.count))])])[0]
                    let headers = try decode(try result(of: reply, method), method) { try Self.headerRun(&$0) }
                    guard headers.count == run.count else {
                        throw connection.problem("the server sent \(headers.count) of the \(run.count) headers from block \(run.start) asked for", method: method)
                    }
                    return (index, headers)
                }
                next += 1
            }
            while next < min(Self.maxBatchesInFlight, runs.count) { start() }
            while let (index, headers) = try await group.next() {
                results[index] = headers
                if next < runs.count { start() }
            }
        }
        return results.map { $0! }
    }

    /// `blockchain.block.headers`' answer: `{"count", "headers": [hex]}` (1.6) or
    /// `{"count", "hex": concatenated}` (1.4, 1.5); `count` must be what arrived.
    static func headerRun(_ reader: inout JSONReader) throws -> [BlockHeader] {
        var count: Int64?
        var headers: [BlockHeader]?
        try reader.readObject { reader, key in
            if key.is("count") { count = try reader.readNonNegativeInt64() }
            else if key.is("headers") {
                var list: [BlockHeader] = []
                try reader.readArray { reader, _ in list.append(try header(try reader.readString(), reader)) }
                headers = list
            } else if key.is("hex") {
                let text = try reader.readString()
                guard text.utf8.count % 160 == 0, let bytes = Hex.decode(text) else { throw reader.error("headers are 80 bytes each, in hex") }
                var list: [BlockHeader] = []
                var offset = 0
                while offset < bytes.count {
                    do { list.append(try BlockHeader(parsing: Array(bytes[offset..<offset + 80]))) } catch { throw reader.error("\(error)") }
                    offset += 80
                }
                headers = list
            } else { try reader.skipValue() }
        }
        guard let count else { throw reader.missing("count") }
        guard let headers else { throw reader.missing("headers") }
        guard count == headers.count else { throw reader.error("count says \(count) headers, \(headers.count) arrived") }
        return headers
    }

    /// `blockchain.transaction.get_merkle` for each `(txid, height)`: the block height the
    /// server names and the branch (hashes reversed to internal byte order).
    public func merkleBranches(_ requests: [(txid: String, height: Int64)]) async throws -> [(height: Int64, branch: MerkleBranch)] {
        try await each(requests.map { ElectrumCall("blockchain.transaction.get_merkle", [.string($0.txid), .integer($0.height)]) }) { reader in
            try Self.merkle(&reader)
        }
    }

    /// `get_merkle`'s answer: `{"block_height", "merkle": [hex], "pos"}`.
    static func merkle(_ reader: inout JSONReader) throws -> (height: Int64, branch: MerkleBranch) {
        var height: Int64?
        var hashes: [[UInt8]]?
        var position: Int64?
        try reader.readObject { reader, key in
            if key.is("block_height") { height = try reader.readNonNegativeInt64() }
            else if key.is("pos") { position = try reader.readNonNegativeInt64() }
            else if key.is("merkle") {
                var list: [[UInt8]] = []
                try reader.readArray { reader, index in
                    // A branch of a block of 2^32 transactions would be 32 deep; no block holds 2^20.
                    guard index < 32 else { throw reader.error("a branch deeper than 32 hashes") }
                    list.append(Array((Hex.decode(try reader.readTxid()) ?? []).reversed()))
                }
                hashes = list
            } else { try reader.skipValue() }
        }
        guard let height else { throw reader.missing("block_height") }
        guard let hashes else { throw reader.missing("merkle") }
        guard let position else { throw reader.missing("pos") }
        guard position < Int64(1) << 32 else { throw reader.error("a position of \(position) is beyond any block") }
        return (height, MerkleBranch(position: Int(position), hashes: hashes))
    }

    static func header(_ hex: String, _ reader: JSONReader) throws -> BlockHeader {
        guard let bytes = Hex.decode(hex) else { throw reader.error("a header is not hex") }
        do {
            return try BlockHeader(parsing: bytes)
        } catch {
            throw reader.error(error.description)
        }
    }

    // MARK: - Status

    /// The status of a history (protocol-basics, "Status"): SHA-256 of `txid:height:` for
    /// each entry in the order given, hex; nil for an empty history.
    public static func status(of history: [ScriptHistoryEntry]) -> String? {
        guard !history.isEmpty else { return nil }
        var text = ""
        for entry in history { text += "\(entry.txid):\(entry.height):" }
        return Hex.encode(SHA256.hash(data: Array(text.utf8)))
    }

    // MARK: - Batching

    /// One call's result, or the server's error object as a source error.
    func one(_ call: ElectrumCall) async throws -> [UInt8] {
        try result(of: try await connection.call([call])[0], call.method)
    }

    /// Each call's result decoded by `decode`, in order, batched and bounded in flight.
    func each<T: Sendable>(_ calls: [ElectrumCall], decode: @escaping @Sendable (inout JSONReader) throws -> T) async throws -> [T] {
        try zip(calls, try await replies(calls)).map { call, reply in
            try self.decode(try result(of: reply, call.method), call.method, decode)
        }
    }

    /// The answers to `calls` in order: at most ``batchSize`` calls a write, at most
    /// ``maxBatchesInFlight`` writes waiting at once.
    public func replies(_ calls: [ElectrumCall]) async throws -> [ElectrumReply] {
        try await numberedReplies(calls).map(\.reply)
    }

    /// ``replies(_:)``, each with the number of the line it arrived on.
    public func numberedReplies(_ calls: [ElectrumCall]) async throws -> [NumberedReply] {
        guard !calls.isEmpty else { return [] }
        let chunks = stride(from: 0, to: calls.count, by: Self.batchSize).map { Array(calls[$0..<min($0 + Self.batchSize, calls.count)]) }
        var replies = [[NumberedReply]?](repeating: nil, count: chunks.count)
        try await withThrowingTaskGroup(of: (Int, [NumberedReply]).self) { group in
            var next = 0
            func start() {
                let (index, chunk) = (next, chunks[next])
                group.addTask { (index, try await connection.numberedCall(chunk)) }
                next += 1
            }
            while next < min(Self.maxBatchesInFlight, chunks.count) { start() }
            while let (index, chunk) = try await group.next() {
                replies[index] = chunk
                if next < chunks.count { start() }
            }
        }
        return replies.flatMap { $0! }
    }

    /// The result of `reply`, or a one-line error naming the method and the server's message.
    func result(of reply: ElectrumReply, _ method: String) throws -> [UInt8] {
        switch reply {
        case .result(let bytes): return bytes
        case .error(let code, let message):
            throw connection.problem(Self.explain(code: code, message: message), method: method)
        }
    }

    /// The server's error, with what to do where walletwatch knows (a history too long for the
    /// server's limits).
    static func explain(code: Int64?, message: String) -> String {
        let said = "the server answered with an error: \(message)" + (code.map { " (code \($0))" } ?? "")
        if code == 10_001 || message.lowercased().contains("history too large") || message.lowercased().contains("history too long") {
            return said + "; an address has more history than the server sends at once: raise its limit (ElectrumX: MAX_SEND; Fulcrum: max_history) or use another server"
        }
        return said
    }

    /// `bytes` read with `body`, its errors naming the method.
    func decode<T>(_ bytes: [UInt8], _ method: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        do {
            return try JSONReader.read(bytes, body)
        } catch let error as JSONReadError {
            throw connection.problem("the answer \(error.path.isEmpty ? "" : "at \(error.path) ")does not fit the protocol: \(error.problem)", method: method)
        }
    }
}
