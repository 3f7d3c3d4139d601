import Foundation
import Hummingbird
import Logging
import Synchronization
import TestSupport

/// A fixed answer of the replay server.
struct ReplayAnswer: Sendable {
    var status: Int = 200
    var body: [UInt8]
    var contentType = "application/json"
}

/// A Hummingbird server on 127.0.0.1 (a free port) that replays data recorded by others, so that
/// walletwatch's real clients read it over libcurl:
///
/// - fixed answers by path (barkd's endpoints, a hostile body), set with ``answer(_:with:)``;
/// - an Esplora explorer over a set of recorded transactions, set with ``serveEsplora(_:addressDocuments:)``:
///   `GET /address/:a` (a recorded address document when there is one, else stats computed from
///   the served transactions), `GET /address/:a/txs` (mempool first, up to 50, then the 25
///   newest confirmed), `GET /address/:a/txs/chain/:last` (the next 25 confirmed after `last`),
///   `GET /blocks/tip/height` (plain text: the highest block served), each transaction's JSON
///   object sent as recorded.
final class ReplayServer: Sendable {
    private struct State {
        var answers: [String: ReplayAnswer] = [:]
        var transactions: [RecordedTransaction] = []
        var addressDocuments: [String: [UInt8]] = [:]
        var port = 0
    }

    private let state = Mutex(State())

    private init() {}

    /// The port it listens on.
    var port: Int { state.withLock { $0.port } }

    /// `http://127.0.0.1:<port>`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Answers `GET path` (the query is ignored) with `answer` from now on.
    func answer(_ path: String, with answer: ReplayAnswer) {
        state.withLock { $0.answers[path] = answer }
    }

    /// Answers `GET path` with `json` (status 200).
    func answer(_ path: String, json: String) {
        answer(path, with: ReplayAnswer(body: Array(json.utf8)))
    }

    /// Serves `transactions` (and only them) as the Esplora history of every address they
    /// touch, and `addressDocuments` (address -> recorded `GET /address/:a` body) verbatim.
    func serveEsplora(_ transactions: [RecordedTransaction], addressDocuments: [String: [UInt8]] = [:]) {
        state.withLock {
            $0.transactions = transactions
            $0.addressDocuments = addressDocuments
        }
    }

    /// Starts a server, runs `body` with it, and stops the server.
    static func run<T: Sendable>(_ body: @Sendable (ReplayServer) async throws -> T) async throws -> T {
        let server = ReplayServer()
        let router = Router()
        router.get("**") { request, _ -> Response in
            server.respond(to: request.uri.path)
        }
        return try await withLoopbackServer(router, label: "walletwatch-replay-server") { port in
            server.state.withLock { $0.port = port }
            return try await body(server)
        }
    }

    private func respond(to path: String) -> Response {
        let (answer, transactions, documents) = state.withLock { ($0.answers[path], $0.transactions, $0.addressDocuments) }
        if let answer {
            return Response(status: .init(code: answer.status), headers: [.contentType: answer.contentType],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        let parts = path.split(separator: "/").map(String.init)
        switch parts.count {
        case 2 where parts[0] == "address":
            return json(documents[parts[1]] ?? Self.summary(of: parts[1], in: transactions))
        case 3 where parts[0] == "address" && parts[2] == "txs":
            let touching = transactions.filter { $0.touches(parts[1]) }
            let mempool = touching.filter { !$0.confirmed }.prefix(50)
            return json(Self.array(Array(mempool) + Self.newestConfirmed(touching).prefix(25)))
        case 5 where parts[0] == "address" && parts[2] == "txs" && parts[3] == "chain":
            let confirmed = Self.newestConfirmed(transactions.filter { $0.touches(parts[1]) })
            guard let last = confirmed.firstIndex(where: { $0.txid == parts[4] }) else { return json(Array("[]".utf8)) }
            return json(Self.array(Array(confirmed[(last + 1)...].prefix(25))))
        case 3 where parts == ["blocks", "tip", "height"]:
            let height = transactions.compactMap(\.blockHeight).max() ?? 0
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "\(height)")))
        default:
            return Response(status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "no route for \(path)")))
        }
    }

    private func json(_ bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Confirmed transactions, newest (highest block) first; the served order breaks ties.
    private static func newestConfirmed(_ transactions: [RecordedTransaction]) -> [RecordedTransaction] {
        transactions.enumerated().filter(\.element.confirmed)
            .sorted { ($0.element.blockHeight ?? 0, -$0.offset) > ($1.element.blockHeight ?? 0, -$1.offset) }
            .map(\.element)
    }

    /// The recorded JSON objects, verbatim, as one array.
    private static func array(_ transactions: [RecordedTransaction]) -> [UInt8] {
        var bytes = Array("[".utf8)
        for (index, transaction) in transactions.enumerated() {
            if index > 0 { bytes += Array(",".utf8) }
            bytes += transaction.json
        }
        return bytes + Array("]".utf8)
    }

    /// `GET /address/:a` as Esplora computes it, from the served transactions. The served
    /// transactions are the newest of the address's history: a coin they spend that none of
    /// them created was received earlier, in a confirmed transaction not served, and counts
    /// in `chain_stats` as funded (an explorer's stats cover the whole history, so a balance
    /// never goes below zero).
    static func summary(of address: String, in transactions: [RecordedTransaction]) -> [UInt8] {
        var chain = (fundedCount: 0, funded: Int64(0), spentCount: 0, spent: Int64(0), count: 0)
        var mempool = chain
        let served = Set(transactions.map(\.txid))
        var earlier: Set<String> = []
        for transaction in transactions where transaction.touches(address) {
            if transaction.confirmed { chain.count += 1 } else { mempool.count += 1 }
            for output in transaction.outputs where output.address == address {
                if transaction.confirmed { chain.fundedCount += 1; chain.funded += output.value }
                else { mempool.fundedCount += 1; mempool.funded += output.value }
            }
            for input in transaction.inputs where input.address == address {
                if transaction.confirmed { chain.spentCount += 1; chain.spent += input.value }
                else { mempool.spentCount += 1; mempool.spent += input.value }
                if !served.contains(input.fundingTxid), earlier.insert(input.outpoint).inserted {
                    chain.fundedCount += 1
                    chain.funded += input.value
                }
            }
        }
        func stats(_ s: (fundedCount: Int, funded: Int64, spentCount: Int, spent: Int64, count: Int)) -> String {
            #"{"funded_txo_count":\#(s.fundedCount),"funded_txo_sum":\#(s.funded),"spent_txo_count":\#(s.spentCount),"spent_txo_sum":\#(s.spent),"tx_count":\#(s.count)}"#
        }
        return Array(#"{"address":"\#(address)","chain_stats":\#(stats(chain)),"mempool_stats":\#(stats(mempool))}"#.utf8)
    }
}


/// A transaction as an Esplora explorer returns it, read from a recorded file: its JSON object
/// verbatim (what the server sends) and, parsed with Foundation, what the server and the tests
/// need to know about it.
struct RecordedTransaction: Sendable {
    /// An output, or an input's prevout.
    struct Leg: Sendable {
        var address: String?
        var value: Int64
        /// For an input: the outpoint it spends.
        var fundingTxid = ""
        var outpoint = ""
    }

    let json: [UInt8]
    let txid: String
    let confirmed: Bool
    let blockHeight: Int64?
    let blockTime: Int64?
    let fee: Int64?
    let outputs: [Leg]
    /// The inputs with a prevout (a coinbase input has none).
    let inputs: [Leg]

    /// Reads `path` (one Esplora transaction object).
    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try self.init(json: Array(data))
    }

    init(json: [UInt8]) throws {
        self.json = json
        guard let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let txid = object["txid"].map({ $0 as? String ?? "\($0)" }), let status = object["status"] as? [String: Any],
              let confirmed = status["confirmed"] as? Bool,
              let vout = object["vout"] as? [[String: Any]], let vin = object["vin"] as? [[String: Any]]
        else { throw RecordedTransactionError.unreadable }
        self.txid = txid
        self.confirmed = confirmed
        blockHeight = (status["block_height"] as? NSNumber)?.int64Value
        blockTime = (status["block_time"] as? NSNumber)?.int64Value
        fee = (object["fee"] as? NSNumber)?.int64Value
        func leg(_ output: [String: Any]) -> Leg {
            // An empty address is none (an OP_RETURN output recorded by mempool.space has "").
            let address = (output["scriptpubkey_address"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            return Leg(address: address, value: (output["value"] as? NSNumber)?.int64Value ?? 0)
        }
        outputs = vout.map(leg)
        inputs = vin.compactMap { input in
            guard let prevout = input["prevout"] as? [String: Any] else { return nil }
            var spent = leg(prevout)
            spent.fundingTxid = input["txid"] as? String ?? ""
            spent.outpoint = "\(spent.fundingTxid):\((input["vout"] as? NSNumber)?.intValue ?? -1)"
            return spent
        }
    }

    /// Whether the transaction pays `address` or spends from it.
    func touches(_ address: String) -> Bool {
        outputs.contains { $0.address == address } || inputs.contains { $0.address == address }
    }

    /// Every distinct address among its outputs and its inputs' prevouts, in order of appearance.
    var addresses: [String] {
        var seen: Set<String> = []
        return (outputs + inputs).compactMap(\.address).filter { seen.insert($0).inserted }
    }
}

enum RecordedTransactionError: Error {
    case unreadable
}
